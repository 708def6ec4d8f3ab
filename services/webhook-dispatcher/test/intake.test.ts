// The event intake's edge cases: a webhook deleted after an event matched it (its callback may
// already have gone out) leaves nothing to record, and the event is settled rather than retried.
import amqp from 'amqplib';
import { expect } from 'chai';
import { testAmqpUrl } from '@idv/db/testing';
import { webhookBody } from '../../webhooks-gateway/test/support.ts';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import { startSink, type Sink } from './sink.ts';
import { deleteQueue, dispatcherEnv, startWebhooksWorld, type WebhooksWorld } from './support.ts';

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
    const env = dispatcherEnv(world);
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

  it('settles an event whose webhook was deleted after it matched, recording nothing', async () => {
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    const hook = await client.request<{ _id: string }>(
      'PUT',
      `${base}/webhook`,
      webhookBody(`${sink.url}/deleted`),
    );
    expect(hook.status).to.equal(200);
    const publish = async () =>
      expect(
        (
          await client.request('PUT', `${base}/event/E_IDV_DOCUMENT_VALIDATE`, {
            dvcID: 'kyc-basic',
            docType: 'passport',
            status: 'verified',
          })
        ).status,
      ).to.equal(202);
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
