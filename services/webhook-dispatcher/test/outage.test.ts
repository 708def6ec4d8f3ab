// A dispatcher stopped while PostgreSQL is away holds an event it could not record: the event goes
// back to its queue (not to `<queue>.dead`), and the next dispatcher delivers it once the database
// is back. PostgreSQL is cut behind a TCP proxy, so the shared server keeps running.
import { expect } from 'chai';
import { testAmqpUrl, testServers } from '@idv/testing/testServers';
import { peekEvents } from '@idv/testing/queuePeek';
import { TcpProxy } from '@idv/testing/tcpProxy';
import { eventually } from '@idv/testing/eventually';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

/** The ids of the events waiting in the queue and in its dead letters. */
async function held(queue: string): Promise<{ waiting: string[]; dead: string[] }> {
  const url = await testAmqpUrl();
  const ids = async (name: string) => ((await peekEvents(url, name)) ?? []).map((e) => e.eventId);
  return { waiting: await ids(queue), dead: await ids(`${queue}.dead`) };
}

describe('webhook dispatcher: stopped during a database outage', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  let sink: Sink;
  let proxy: TcpProxy;
  let env: ReturnType<typeof dispatcherEnv>;
  let dispatcher: StartedDispatcher | undefined;

  before(async () => {
    world = await startWebhooksWorld();
    sink = await startSink();
    const server = new URL((await testServers()).postgresUrl);
    proxy = await TcpProxy.start(server.hostname, Number(server.port || 5432));
    // only the dispatcher goes through the proxy: the gateway keeps accepting events
    const proxied = new URL(world.env.DATABASE_URL!);
    proxied.host = `127.0.0.1:${proxy.port}`;
    env = dispatcherEnv(world, { DATABASE_URL: proxied.toString() });
  });
  after(async () => {
    proxy?.restore();
    await dispatcher?.stop();
    await sink?.close();
    await world?.stop();
    await proxy?.close();
    if (env) await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  });

  it('leaves the event it held in its queue, and the next dispatcher delivers it', async () => {
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    const hook = await client.request('PUT', `${base}/webhook`, webhookBody(`${sink.url}/held`));
    expect(hook.status).to.equal(200);
    dispatcher = await startWebhookDispatcher(env);
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);

    proxy.cut();
    const published = await client.request<{ eventId: string }>(
      'PUT',
      `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
      { dvcID: 'kyc-held', docType: 'passport', status: 'verified' },
    );
    expect(published.status).to.equal(202);
    const { eventId } = published.body;
    const queue = env.WEBHOOK_EVENTS_QUEUE;
    // taken by the dispatcher and held while it retries the database: connections refused since
    await eventually(
      'the event taken by the dispatcher',
      async () => !(await held(queue)).waiting.includes(eventId),
      10_000,
    );
    const refused = proxy.refused;
    await eventually('the database refusing the dispatcher', () => proxy.refused >= refused + 2);

    await dispatcher.stop();
    dispatcher = undefined;
    const after = await held(queue);
    expect(after.waiting, 'back in its queue').to.include(eventId);
    expect(after.dead, 'dead-lettered').to.not.include(eventId);
    expect(sink.received.filter((r) => r.path === '/held')).to.deep.equal([]);

    proxy.restore();
    dispatcher = await startWebhookDispatcher(env);
    const calls = await sink.waitFor(1, '/held');
    expect(calls.map((c) => (JSON.parse(c.body) as { eventId: string }).eventId)).to.deep.equal([
      eventId,
    ]);
  });
});
