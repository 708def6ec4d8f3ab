// Across the platform: a webhook subscribed to E_IDV_DOCUMENT_VALIDATE receives a signed callback
// after a dl_authenticate request to the docverify gateway.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { IdvClient } from '@idv/client';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../services/provider-sandbox/src/start.ts';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '../services/webhook-dispatcher/test/sink.ts';
import { waitForQueue } from '../services/webhook-dispatcher/test/support.ts';
import { deleteQueues } from './support/amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from './support/platform.ts';

describe('a verification reaches a webhook', function () {
  this.timeout(60_000);
  const prefix = `test.callback.${randomBytes(4).toString('hex')}`;
  const eventsQueue = `test.callback.events.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let dispatcher: StartedDispatcher;
  let sink: Sink;

  before(async () => {
    sandbox = await startSandbox(0);
    sink = await startSink();
    platform = await startPlatform({ CONNECTOR_QUEUE_PREFIX: prefix });
    const shared = {
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
    };
    worker = await startConnectorWorker({
      ...shared,
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'agent_review',
    });
    dispatcher = await startWebhookDispatcher({
      ...platform.env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    await waitForQueue(eventsQueue);
  });
  after(async () => {
    await dispatcher?.stop();
    await worker?.stop();
    await platform?.stop();
    await sandbox?.close();
    await sink?.close();
    await deleteQueues(platform.env.AMQP_URL!, [eventsQueue, `${prefix}.agent_review`]);
  });

  it('delivers E_IDV_DOCUMENT_VALIDATE, signed, without personal data', async () => {
    const { community } = platform;
    const webhooks = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    });
    const created = await webhooks.request<{ _id: string; secret: string }>(
      'PUT',
      `/tenant/${community.tenantId}/community/${community.id}/webhook`,
      {
        name: 'verifications',
        eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
        api: { type: 'POST', url: `${sink.url}/idv`, authType: 'none' },
        successCodes: [200],
      },
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);

    const docverify = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    await docverify.request('PUT', `/verifier/community/${community.id}`, {
      name: 'review',
      tag: 'review',
      type: 'agent_review',
      connectorUrl: sandbox.url,
      config: { apiKey: 'sandbox-key' },
    });
    await docverify.request('PUT', `/verificationConfig/community/${community.id}`, {
      tenantId: community.tenantId,
      tag: 'kyc',
      dl_authenticate: [{ verifier: 'review' }],
    });
    const verified = await docverify.encryptedRequest<{ status: string }>('POST', '/verify', {
      dvcID: 'kyc',
      verifications: ['dl_authenticate'],
      document: {
        id: 'doc-7',
        type: 'DL',
        front_image: Buffer.from('DOC:testy').toString('base64'),
      },
    });
    expect(verified.status).to.equal(200);

    const [callback] = await sink.waitFor(1, '/idv', 20_000);
    const secret = created.body.secret;
    expect(secret).to.match(/^whsec_/);
    const payload = new Webhook(secret).verify(
      callback!.body,
      callback!.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(JSON.stringify(payload)).to.contain('E_IDV_DOCUMENT_VALIDATE');
    expect(callback!.body).not.to.match(/McTestface|Testy|doc-7/);
  });
});
