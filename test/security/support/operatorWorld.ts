// The security world with what operators' bearer tokens need: the stand-in for the operators'
// issuer (its operators named once the communities exist), and real review cases made as
// @idv/testing/conformanceReview makes them: the provider sandbox and one face_compare worker on
// the world's own queues, configs asking a review of every run (one with four-eyes), and each case
// brought to the state a call starts from; and pending webhook deliveries to send again.
import { randomBytes, randomUUID } from 'node:crypto';
import { IdvClient } from '@idv/client';
import type { VerifyRequest } from '@idv/contracts';
import { testAmqpUrl } from '@idv/testing/testServers';
import { startConnectorWorker } from '../../../services/connector-worker/src/start.ts';
import { startSandbox } from '../../../services/provider-sandbox/src/start.ts';
import { DeliveryQueue } from '../../../services/webhook-dispatcher/src/store/deliveryQueue.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startOperatorsStandIn, type OperatorsStandIn } from '@idv/testing/operatorsStandIn';
import { eventually } from '@idv/testing/sessionWorld';
import { fixtures } from './fixtures.ts';
import { startSecurityWorld, type SecurityWorld } from './world.ts';

export interface ReviewCase {
  caseId: string;
  verificationId: string;
}

export interface OperatorWorld extends SecurityWorld {
  operators: OperatorsStandIn;
  /** a fresh case waiting for a reviewer */
  openCase(): Promise<ReviewCase>;
  /** a fresh case claimed by the stand-in operator `by` */
  claimedCase(by: string): Promise<ReviewCase>;
  /** a fresh four-eyes case `by` claimed and approved: waiting for its second review */
  awaitingSecond(by: string): Promise<ReviewCase>;
  /** a fresh pending delivery of a fresh webhook of the world's community */
  delivery(): Promise<{ webhookId: string; deliveryId: string }>;
  /** the tag of the community's verifier, and of a config of it */
  verifierTag: string;
  reviewConfigTag: string;
}

const face = Buffer.from('FACE:testy').toString('base64');
const CONNECTOR = 'face_compare_b';

export async function startOperatorWorld(): Promise<OperatorWorld> {
  const prefix = `test.security.operators.${randomBytes(4).toString('hex')}`;
  const [operators, sandbox] = await Promise.all([startOperatorsStandIn(), startSandbox(0)]);
  const world = await startSecurityWorld({
    OPERATORS_USERINFO_URL: operators.url,
    CONNECTOR_QUEUE_PREFIX: prefix,
  });
  const { platform } = world;
  const worker = await startConnectorWorker({
    AMQP_URL: platform.env.AMQP_URL!,
    MASTER_KEY: platform.env.MASTER_KEY!,
    LOG_LEVEL: 'silent',
    CONNECTOR_QUEUE_PREFIX: prefix,
    CONNECTOR_TYPE: CONNECTOR,
  });
  await worker.broker.waitUntilConnected(15_000);

  const { community } = platform;
  const caller = new IdvClient({
    baseUrl: platform.services.docverify.url,
    licenseKey: platform.licences.service,
  });
  const made = async (path: string, body: object) => {
    const res = await caller.request('PUT', `${path}/community/${community.id}`, body);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await made('/verifier', {
    name: 'provider',
    tag: 'provider',
    type: CONNECTOR,
    connectorUrl: sandbox.url,
    config: { apiKey: 'sandbox-key' },
  });
  for (const [tag, fourEyes] of [
    ['review-always', false],
    ['review-four-eyes', true],
  ] as const)
    await made('/verificationConfig', {
      tenantId: community.tenantId,
      tag,
      face_compare: [{ verifier: 'provider' }],
      review: { mode: 'always', fourEyes },
    });

  const cases = `${platform.services.docverify.url}/review/community/${community.id}/cases`;
  const step = async (by: string, caseId: string, name: string, body?: unknown) => {
    const res = await fetch(`${cases}/${caseId}/${name}`, {
      method: 'POST',
      headers: { ...operators.bearer(by), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  };
  const opened = async (dvcID: string): Promise<ReviewCase> => {
    const request = {
      dvcID,
      verifications: ['face_compare'],
      document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
    } as VerifyRequest;
    const { verificationId } = await caller.verifyAsync(request);
    const caseId = await eventually('the review case', async () => {
      const list = await caller.review.cases(community.id, { state: 'open', limit: 100 });
      return list.items.find((item) => item.verificationId === verificationId)?.caseId;
    });
    return { caseId, verificationId };
  };
  const claimed = async (dvcID: string, by: string) => {
    const kase = await opened(dvcID);
    await step(by, kase.caseId, 'claim');
    return kase;
  };
  const webhook = fixtures(world).webhook;
  const deliveries = new DeliveryQueue(platform.database.db, 60_000);

  return {
    ...world,
    operators,
    verifierTag: 'provider',
    reviewConfigTag: 'review-always',
    openCase: () => opened('review-always'),
    claimedCase: (by) => claimed('review-always', by),
    async awaitingSecond(by) {
      const kase = await claimed('review-four-eyes', by);
      await step(by, kase.caseId, 'decision', {
        decision: 'approve',
        reasonCode: 'identity_confirmed',
      });
      return kase;
    },
    async delivery() {
      const webhookId = await webhook(community);
      const deliveryId = `msg_${randomBytes(12).toString('hex')}`;
      await deliveries.add([
        {
          id: deliveryId,
          webhookId,
          eventId: randomUUID(),
          eventName: 'E_IDV_DOCUMENT_VALIDATE',
          body: '{}',
          eventAt: new Date(),
          expiresAt: null,
        },
      ]);
      return { webhookId, deliveryId };
    },
    async stop() {
      await worker.stop();
      await world.stop();
      await Promise.all([sandbox.close(), operators.close()]);
      await deleteQueues(await testAmqpUrl(), [
        `${prefix}.${CONNECTOR}`,
        `${prefix}.${CONNECTOR}.followup`,
        ...[1, 10, 60].map((s) => `${prefix}.${CONNECTOR}.followup.wait.${s}s`),
      ]);
    },
  };
}
