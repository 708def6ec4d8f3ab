// Gateways SIGKILLed under load and started again, as a container runtime would: no request hangs
// past its deadline (in-flight ones fail with a reset, new ones are refused while it is down), the
// restarted process serves again, and every event a gateway accepted (202) reaches its webhook.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../services/provider-sandbox/src/start.ts';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '../../services/webhook-dispatcher/test/sink.ts';
import { webhookBody } from '../../services/webhooks-gateway/test/support.ts';
import { deleteQueues } from '../support/amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from '../support/platform.ts';
import { freePort, ServiceProcess, startLoad, tally, until, type Outcome } from './support.ts';

const face = Buffer.from('FACE:testy').toString('base64');
const DEADLINE_MS = 15_000;

describe('faults: a gateway killed with SIGKILL under load', function () {
  this.timeout(180_000);
  const prefix = `test.gwkill.${randomBytes(4).toString('hex')}`;
  const eventsQueue = `test.gwkill.events.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let dispatcher: StartedDispatcher;
  let sink: Sink;
  const processes: ServiceProcess[] = [];

  before(async () => {
    sandbox = await startSandbox(0);
    platform = await startPlatform({
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TIMEOUT_MS: '5000',
    });
    worker = await startConnectorWorker({
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_compare_b',
    });
    dispatcher = await startWebhookDispatcher({
      ...platform.env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
    sink = await startSink();
    const c = platform.community;
    const admin = (url: string) =>
      new IdvClient({ baseUrl: url, licenseKey: platform.licences.service });
    const docverify = admin(platform.services.docverify.url);
    expect(
      (
        await docverify.request('PUT', `/verifier/community/${c.id}`, {
          name: 'faces',
          tag: 'faces',
          type: 'face_compare_b',
          connectorUrl: sandbox.url,
          config: { apiKey: 'sandbox-key' },
        })
      ).status,
    ).to.equal(200);
    expect(
      (
        await docverify.request('PUT', `/verificationConfig/community/${c.id}`, {
          tenantId: c.tenantId,
          tag: 'kyc',
          face_compare: [{ verifier: 'faces' }],
        })
      ).status,
    ).to.equal(200);
    const hook = await admin(platform.services.webhooks.url).request(
      'PUT',
      `/tenant/${c.tenantId}/community/${c.id}/webhook`,
      webhookBody(`${sink.url}/intake`),
    );
    expect(hook.status).to.equal(200);
  });
  after(async () => {
    for (const p of processes) await p.stop();
    await dispatcher?.stop();
    await worker?.stop();
    await sink?.close();
    await platform?.stop();
    await sandbox?.close();
    if (platform)
      await deleteQueues(platform.env.AMQP_URL!, [`${prefix}.face_compare_b`, eventsQueue]);
  });

  /** A second replica of a gateway, on the suite's database, as its own process. */
  async function gatewayProcess(entry: string, portVariable: string) {
    const port = await freePort();
    const gateway = new ServiceProcess(
      entry,
      { ...platform.env, [portVariable]: String(port) },
      `http://127.0.0.1:${port}/healthz`,
    );
    processes.push(gateway);
    await gateway.start();
    return { gateway, url: `http://127.0.0.1:${port}` };
  }

  /** Load; SIGKILL after `killAfter` outcomes; start it again; go on for `afterRestart` more. */
  async function killUnderLoad(
    gateway: ServiceProcess,
    op: () => Promise<{ status: number; body?: unknown }>,
    killAfter: number,
    afterRestart: number,
  ): Promise<{ outcomes: Outcome[]; afterRestart: Outcome[] }> {
    const restarted: { at?: number } = {};
    const load = startLoad(
      8,
      op,
      (o) => restarted.at !== undefined && o.length >= restarted.at + afterRestart,
      DEADLINE_MS,
    );
    await until('load to build up', () => load.outcomes.length >= killAfter);
    await gateway.kill();
    await gateway.start();
    restarted.at = load.outcomes.length;
    const outcomes = await load.finished;
    return { outcomes, afterRestart: outcomes.slice(restarted.at) };
  }

  it('docverify: every /verify ends within its deadline, and the restarted gateway verifies again', async () => {
    const { gateway, url } = await gatewayProcess(
      'services/docverify-gateway/src/main.ts',
      'DOCVERIFY_PORT',
    );
    const caller = new IdvClient({ baseUrl: url, licenseKey: platform.licences.community });
    const { outcomes, afterRestart } = await killUnderLoad(
      gateway,
      () =>
        caller.encryptedRequest('POST', '/verify', {
          dvcID: 'kyc',
          verifications: ['face_compare'],
          document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
        }),
      60,
      120,
    );
    const counts = tally(outcomes);
    console.log(`      /verify outcomes around the kill: ${JSON.stringify(counts)}`);
    expect(
      outcomes.filter((o) => o.status === -1),
      'hung requests',
    ).to.have.length(0);
    for (const o of outcomes) expect([200, 503, 0], JSON.stringify(o)).to.include(o.status);
    expect(afterRestart.filter((o) => o.status === 200).length).to.be.greaterThan(0);
    for (const o of outcomes.filter((x) => x.status === 200))
      expect((o.body as { status: string }).status).to.equal('verified');
  });

  it('webhooks: every event accepted before or after the kill reaches the webhook', async () => {
    const { gateway, url } = await gatewayProcess(
      'services/webhooks-gateway/src/main.ts',
      'WEBHOOKS_PORT',
    );
    const c = platform.community;
    const client = new IdvClient({ baseUrl: url, licenseKey: platform.licences.service });
    const { outcomes, afterRestart } = await killUnderLoad(
      gateway,
      () =>
        client.request(
          'PUT',
          `/tenant/${c.tenantId}/community/${c.id}/event/E_IDV_DOCUMENT_VALIDATE`,
          {
            dvcID: 'kyc',
            docType: 'passport',
            status: 'verified',
          },
        ),
      100,
      200,
    );
    console.log(`      event intake outcomes around the kill: ${JSON.stringify(tally(outcomes))}`);
    expect(
      outcomes.filter((o) => o.status === -1),
      'hung requests',
    ).to.have.length(0);
    for (const o of outcomes) expect([202, 503, 0], JSON.stringify(o)).to.include(o.status);
    expect(afterRestart.filter((o) => o.status === 202).length).to.be.greaterThan(0);

    const accepted = outcomes
      .filter((o) => o.status === 202)
      .map((o) => (o.body as { eventId: string }).eventId);
    const delivered = () =>
      new Set(
        sink.received
          .filter((r) => r.path === '/intake')
          .map((r) => (JSON.parse(r.body) as { eventId: string }).eventId),
      );
    await until(
      'every accepted event delivered',
      () => accepted.every((id) => delivered().has(id)),
      60_000,
    ).catch(() => undefined);
    const missing = accepted.filter((id) => !delivered().has(id));
    expect(
      missing,
      `${missing.length} of ${accepted.length} accepted events never delivered`,
    ).to.have.length(0);
  });
});
