// Callbacks attempted as their event arrives: a retry comes at its due time although the delivery
// loop polls rarely, and a webhook deleted after an event matched it (its callback may already
// have gone out) leaves nothing to record, the event being settled rather than retried.
import amqp from 'amqplib';
import { expect } from 'chai';
import { testAmqpUrl } from '@idv/testing/testServers';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

async function deadLetters(queue: string): Promise<number> {
  const connection = await amqp.connect(await testAmqpUrl());
  try {
    const channel = await connection.createChannel();
    return (await channel.checkQueue(`${queue}.dead`)).messageCount;
  } finally {
    await connection.close();
  }
}

describe('webhook dispatcher: event intake', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  let dispatcher: StartedDispatcher | undefined;
  let sink: Sink;
  let queue: string;

  before(async () => {
    world = await startWebhooksWorld();
    sink = await startSink();
    // a poll far beyond the test's patience: whatever happens, happens because it was woken
    const env = dispatcherEnv(world, { WEBHOOK_POLL_MS: '600000' });
    queue = env.WEBHOOK_EVENTS_QUEUE;
    dispatcher = await startWebhookDispatcher(env);
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
  });
  after(async () => {
    await dispatcher?.stop();
    await sink?.close();
    await world?.stop();
    if (queue) await deleteQueue(queue);
  });

  const base = () => `/tenant/${world.community.tenantId}/community/${world.community.id}`;
  const publish = async () =>
    expect(
      (
        await world.client('service').request('PUT', `${base()}/event/E_IDV_DOCUMENT_VALIDATE`, {
          dvcID: 'kyc-basic',
          docType: 'passport',
          status: 'verified',
        })
      ).status,
    ).to.equal(202);

  it('retries a callback at its due time, not at the next poll', async () => {
    sink.script('/again', [503, 200]);
    const hook = await world
      .client('service')
      .request(
        'PUT',
        `${base()}/webhook`,
        webhookBody(`${sink.url}/again`, { retryCodes: [503], retryCount: 1 }),
      );
    expect(hook.status).to.equal(200);
    await publish();
    const calls = await sink.waitFor(2, '/again', 20_000);
    expect(calls.map((r) => r.headers['webhook-id'])).to.have.length(2);
  });

  it('settles an event whose webhook was deleted after it matched, recording nothing', async () => {
    const client = world.client('service');
    const hook = await client.request<{ _id: string }>(
      'PUT',
      `${base()}/webhook`,
      webhookBody(`${sink.url}/deleted`),
    );
    expect(hook.status).to.equal(200);
    await publish();
    await sink.waitFor(1, '/deleted'); // the dispatcher now has the webhook cached
    // deleted behind the gateway's back: no change notification, so the cache still matches it
    await world.database.db('webhooks.webhooks').where({ id: hook.body._id }).delete();
    await publish();
    expect(await sink.waitFor(2, '/deleted')).to.have.length(2);
    // stopping gives up on an event still being recorded, which would dead-letter it
    await dispatcher!.stop();
    dispatcher = undefined;
    expect(await deadLetters(queue), 'events given up').to.equal(0);
    const rows = await world.database
      .db('webhooks.deliveries')
      .where({ webhook_id: hook.body._id });
    expect(rows).to.deep.equal([]);
  });
});
