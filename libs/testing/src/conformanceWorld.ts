// What the OpenAPI conformance test calls with: the platform with a connector worker, the provider
// sandbox and the dispatcher, the OAuth party (conformanceOauth.ts), a stand-in for the operators'
// issuer (operatorsStandIn.ts) with a reviewer, and fresh resources (verifier, config, webhook,
// delivery, a kept verification, review cases: conformanceReview.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import { documentImage, jpeg, png } from '@idv/samples/captureImages';
import { passportPage } from '@idv/samples/idDocuments';
import { oauthParty, startIdp, type OauthParty } from './conformanceOauth.ts';
import { credentialHeaders, newCaller, seal, shared, unseal } from './independentClient.ts';
import { deleteQueues } from './amqpCleanup.ts';
import { eventually } from './eventually.ts';
import { reviewFixtures, type ReviewFixtures } from './conformanceReview.ts';
import { startOperatorsStandIn } from './operatorsStandIn.ts';
import { startVerifyWorld, type VerifyWorld } from './verifyWorld.ts';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../../services/connector-worker/src/start.ts';

export type Service = 'oauth' | 'docverify' | 'webhooks';
export type Caller = 'system' | 'service' | 'community';

export interface ConformanceWorld extends ReviewFixtures {
  verify: VerifyWorld;
  url(service: Service): string;
  headers(service: Service, caller: Caller): Promise<Record<string, string>>;
  verifier(): Promise<string>;
  config(): Promise<string>;
  webhook(): Promise<string>;
  delivery(): Promise<{ webhookId: string; deliveryId: string }>;
  keptVerification(): Promise<string>;
  /** a fresh session of a config sessions can run, and its page token */
  session(sessionRequest?: Record<string, unknown>): Promise<{ sessionId: string; token: string }>;
  /** the same, opened and consented on its page */
  capturing(
    sessionRequest?: Record<string, unknown>,
  ): Promise<{ sessionId: string; token: string }>;
  /** a passport page image the capture checks accept */
  passportImage: Buffer;
  /** a fresh sync /verify whose agent review is pending (decided in 10 minutes) */
  pendingReview(): Promise<{ verifierId: string; verificationId: string; reference: string }>;
  oauth: OauthParty;
  /** the Authorization header of an operator with the reviewer role on every community */
  operator: Record<string, string>;
  stop(): Promise<void>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

export async function startConformanceWorld(): Promise<ConformanceWorld> {
  // a built capture page, as the gateway serves it
  const pageDir = mkdtempSync(join(tmpdir(), 'capture-page-'));
  mkdirSync(join(pageDir, 'assets'));
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><title>capture</title>');
  writeFileSync(join(pageDir, 'assets', 'app-1.js'), 'void 0;');
  const operators = await startOperatorsStandIn({ reviewer: { roles: ['reviewer'] } });
  const verify = await startVerifyWorld({
    name: 'openapi',
    dispatcher: true,
    platform: { CAPTURE_PAGE_DIR: pageDir, OPERATORS_USERINFO_URL: operators.url },
  });
  const { platform } = verify;
  const { community } = platform;
  const url = (service: Service) => platform.services[service].url;
  const publicKey = async (service: Service) =>
    ((await (await fetch(`${url(service)}/publickeys`)).json()) as { publicKey: string }).publicKey;
  const headers = async (service: Service, caller: Caller) =>
    credentialHeaders({
      licenseKey: platform.licences[caller],
      servicePublicKey: await publicKey(service),
    });
  const send = async (service: Service, method: string, path: string, body?: unknown) => {
    const res = await fetch(url(service) + path, {
      method,
      headers: { ...(await headers(service, 'system')), ...JSON_TYPE },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };

  const tag = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const verifier = async () =>
    String(
      (
        await send('docverify', 'PUT', `/verifier/community/${community.id}`, {
          name: 'Conformance verifier',
          tag: tag('v'),
          type: 'identity_data',
          connectorUrl: 'http://127.0.0.1:9/identity',
          config: { apiKey: 'conformance-key' },
        })
      ).tag,
    );
  const config = async (settings?: object) => {
    const body = {
      tenantId: community.tenantId,
      tag: tag('cfg'),
      face_compare: [{ verifier: 'provider' }],
      ...(settings ? { settings } : {}),
    };
    await send('docverify', 'PUT', `/verificationConfig/community/${community.id}`, body);
    return body.tag;
  };
  const hooks = `/tenant/${community.tenantId}/community/${community.id}`;
  const webhook = async () =>
    String(
      (
        await send('webhooks', 'PUT', `${hooks}/webhook`, {
          name: 'Conformance callbacks',
          eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
          api: { type: 'POST', url: 'http://127.0.0.1:9/hook', authType: 'none' },
          successCodes: [200],
        })
      )._id,
    );

  const delivery = async () => {
    const hook = await verify.subscribe(`/${randomUUID()}`, ['E_IDV_DOCUMENT_VALIDATE']);
    await send('webhooks', 'PUT', `${hooks}/event/E_IDV_DOCUMENT_VALIDATE`, {
      dvcID: 'kyc',
      docType: 'passport',
      status: 'verified',
    });
    return eventually(
      'a delivery to settle',
      async () => {
        const list = await send('webhooks', 'GET', `${hooks}/webhook/${hook._id}/deliveries`);
        const [first] = list.data as { _id: string; status: string }[];
        const settled = first && first.status !== 'pending' && first.status !== 'delivering';
        return settled && { webhookId: hook._id, deliveryId: first._id };
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
  };

  const keptConfig = await config({
    dataRetention: { pii_retention_off: false, pii_retention_ttl: 600 },
  });
  /** POST {data: encrypt(payload)} with a service licence: the answer and the key that opens it */
  const encryptedPost = async (path: string, payload: unknown) => {
    const servicePublicKey = await publicKey('docverify');
    const key = newCaller();
    const sharedKey = shared(key, servicePublicKey);
    const res = await fetch(`${url('docverify')}${path}`, {
      method: 'POST',
      headers: {
        ...credentialHeaders({
          licenseKey: platform.licences.service,
          servicePublicKey,
          caller: key,
        }),
        ...JSON_TYPE,
      },
      body: JSON.stringify({ data: seal(sharedKey, JSON.stringify(payload)) }),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
    return { answer, sharedKey };
  };
  /** the plain answer (or the still encrypted one) of an encrypted call */
  const encryptedCall = async (path: string, payload: unknown) =>
    (await encryptedPost(path, payload)).answer;
  /** POST /verify, its answer decrypted */
  const verifyCall = async <T>(request: unknown): Promise<T> => {
    const { answer, sharedKey } = await encryptedPost('/verify', request);
    if (typeof answer.data !== 'string') throw new Error(`/verify: ${JSON.stringify(answer)}`);
    return JSON.parse(unseal(sharedKey, answer.data)) as T;
  };
  const keptVerification = async () =>
    (
      await verifyCall<{ verificationId: string }>({
        ...verify.verifyBody(),
        dvcID: keptConfig,
      })
    ).verificationId;

  // documents by a verifier no worker serves: sessions are made and captured, never processed here
  let sessionConfig: Promise<void> | undefined;
  const session = async (sessionRequest: Record<string, unknown> = {}) => {
    sessionConfig ??= (async () => {
      await send('docverify', 'PUT', `/verifier/community/${community.id}`, {
        name: 'Session documents',
        tag: 'session-docs',
        type: 'auto_review',
        connectorUrl: 'http://127.0.0.1:9/review',
        config: { apiKey: 'conformance-key' },
      });
      await send('docverify', 'PUT', `/verificationConfig/community/${community.id}`, {
        tenantId: community.tenantId,
        tag: 'session-kyc',
        dl_authenticate: [{ verifier: 'session-docs' }],
        ppt_authenticate: [{ verifier: 'session-docs' }],
        face_compare: [{ verifier: 'provider' }],
        // a logo, so the page's logo address answers
        settings: {
          branding: {
            name: 'Testy Bank',
            logo: `data:image/png;base64,${(await png(documentImage(64, 32))).toString('base64')}`,
          },
        },
      });
    })();
    await sessionConfig;
    const created = await encryptedCall('/document_share_session/create', {
      dvcID: 'session-kyc',
      sessionRequest,
    });
    const token = new URL(String(created.url)).pathname.split('/').at(-1)!;
    return { sessionId: String(created.sessionId), token };
  };
  const capturing = async (sessionRequest: Record<string, unknown> = {}) => {
    const made = await session(sessionRequest);
    const page = { authorization: `Bearer ${made.token}`, ...JSON_TYPE };
    await fetch(`${url('docverify')}/capture-api/session`, { headers: page });
    const consent = await fetch(`${url('docverify')}/capture-api/consent`, {
      method: 'POST',
      headers: page,
      body: JSON.stringify({ accepted: true, textVersion: CONSENT_TEXT_VERSION }),
    });
    if (consent.status !== 200) throw new Error(`consent: ${consent.status}`);
    return made;
  };
  const passportImage = await jpeg(await passportPage(), 'DOC:testy');

  // an agent review worker, a verifier of it and a config, made on first use
  let reviewer: Promise<{ worker: RunningWorker; verifierId: string }> | undefined;
  const pendingReview = async () => {
    reviewer ??= (async () => {
      const worker = await startConnectorWorker({
        AMQP_URL: platform.env.AMQP_URL!,
        MASTER_KEY: platform.env.MASTER_KEY!,
        LOG_LEVEL: 'silent',
        CONNECTOR_QUEUE_PREFIX: platform.env.CONNECTOR_QUEUE_PREFIX!,
        CONNECTOR_TYPE: 'agent_review',
      });
      await worker.broker.waitUntilConnected(15_000);
      const created = await send('docverify', 'PUT', `/verifier/community/${community.id}`, {
        name: 'Reviews decided later',
        tag: 'review-later',
        type: 'agent_review',
        connectorUrl: verify.sandbox.url,
        config: { apiKey: 'sandbox-key' },
      });
      await send('docverify', 'PUT', `/verificationConfig/community/${community.id}`, {
        tenantId: community.tenantId,
        tag: 'pending-kyc',
        dl_authenticate: [{ verifier: 'review-later' }],
      });
      return { worker, verifierId: String(created.id) };
    })();
    const { verifierId } = await reviewer;
    const front_image = Buffer.from('DOC:testy\nREVIEW:600000').toString('base64');
    const request = {
      dvcID: 'pending-kyc',
      verifications: ['dl_authenticate'],
      document: { id: 'doc-pending', type: 'dl', front_image },
    };
    const result = await verifyCall<{
      verificationId: string;
      certifications: { result: { followUp: { reference: string } } }[];
    }>(request);
    const reference = result.certifications[0]!.result.followUp.reference;
    return { verifierId, verificationId: result.verificationId, reference };
  };

  const idp = await startIdp();
  const oauth = await oauthParty(verify, idp);
  const operator = operators.bearer('reviewer');
  return {
    ...reviewFixtures(verify, operator),
    operator,
    verify,
    url,
    headers,
    verifier,
    config: () => config(),
    webhook,
    delivery,
    keptVerification,
    session,
    capturing,
    passportImage,
    pendingReview,
    oauth,
    async stop() {
      idp.server.close();
      const review = await reviewer;
      if (review) {
        await review.worker.stop();
        const queue = review.worker.queue;
        await deleteQueues(platform.env.AMQP_URL!, [
          queue,
          `${queue}.followup`,
          ...[1, 10, 60].map((s) => `${queue}.followup.wait.${s}s`),
        ]);
      }
      await verify.stop();
      await operators.close();
      rmSync(pageDir, { recursive: true, force: true });
    },
  };
}
