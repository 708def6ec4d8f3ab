// Events accepted before the webhook dispatcher ever ran: the services declare its queue before
// they publish (as `make run` starts them, in any order), so the events wait there and reach their
// webhooks once a dispatcher starts, instead of being dropped by the broker as unroutable.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { peekEvents } from '@idv/testing/queuePeek';
import { eventually } from '@idv/testing/eventually';

describe('events published before the webhook dispatcher first ran', function () {
  this.timeout(60_000);
  // a queue no dispatcher has ever consumed: only the services below can have declared it
  const queue = `test.events.early.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sink: Sink;
  let dispatcher: StartedDispatcher | undefined;

  before(async () => {
    sink = await startSink();
    platform = await startPlatform({
      WEBHOOK_EVENTS_QUEUE: queue,
      DECLARE_WEBHOOK_EVENTS_QUEUE: 'true',
    });
  });
  after(async () => {
    await dispatcher?.stop();
    await platform?.stop();
    await sink?.close();
    if (platform) await deleteQueues(platform.env.AMQP_URL!, [queue]);
  });

  it('keeps an intake event and a service event and delivers both once a dispatcher starts', async () => {
    const { community, licences } = platform;
    const client = (service: 'docverify' | 'webhooks') =>
      new IdvClient({ baseUrl: platform.services[service].url, licenseKey: licences.service });
    const base = `/tenant/${community.tenantId}/community/${community.id}`;
    const hook = await client('webhooks').request('PUT', `${base}/webhook`, {
      name: 'Testy early callbacks',
      eventNames: ['E_IDV_DOCUMENT_VALIDATE', 'E_IDV_VERIFIER_CHANGED'],
      api: { type: 'POST', url: `${sink.url}/early`, authType: 'none' },
      successCodes: [200],
    });
    expect(hook.status).to.equal(200);

    const intake = await client('webhooks').request<{ eventId: string }>(
      'PUT',
      `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
      { dvcID: 'kyc-early', docType: 'passport', status: 'verified' },
    );
    expect(intake.status).to.equal(202);
    // the docverify gateway publishes E_IDV_VERIFIER_CHANGED (through its outbox) on a create
    const verifier = await client('docverify').request<{ id: string }>(
      'PUT',
      `/verifier/community/${community.id}`,
      {
        name: 'early',
        tag: 'early',
        type: 'face_compare_b',
        connectorUrl: 'http://127.0.0.1:9',
        config: { apiKey: 'sandbox-key' },
      },
    );
    expect(verifier.status).to.equal(200);

    // the queue, bound to every event, also collects other suites' events: look for ours
    const ours = async () =>
      (await peekEvents(platform.env.AMQP_URL!, queue))
        ?.filter((event) => event.communityId === community.id)
        .map((event) => event.eventName)
        .sort();
    const waiting = await eventually(
      'our two events in the queue',
      async () => {
        const found = await ours();
        return found?.length === 2 ? found : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(waiting, 'events waiting for the dispatcher').to.deep.equal([
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_VERIFIER_CHANGED',
    ]);

    dispatcher = await startWebhookDispatcher({
      ...platform.env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    const calls = await sink.waitFor(2, '/early');
    const events = calls.map((c) => JSON.parse(c.body) as { eventId: string; eventName: string });
    expect(events.map((e) => e.eventName).sort()).to.deep.equal([
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_VERIFIER_CHANGED',
    ]);
    expect(events.map((e) => e.eventId)).to.include(intake.body.eventId);
  });
});
