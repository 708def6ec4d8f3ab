// At-least-once across a crash: a dispatcher SIGKILLed mid-stream is restarted and every event
// reaches every matching webhook; the webhook-id lets the receiver de-duplicate.
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { eventually } from '@idv/testing/eventually';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher } from '../src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

const EVENTS = Number(process.env.WEBHOOK_RESTART_EVENTS ?? 60);

function startChild(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'services/webhook-dispatcher/src/main.ts'], {
    env: {
      ...process.env,
      ...env,
      ...(process.env.WEBHOOK_TEST_DEBUG ? { LOG_LEVEL: 'info' } : {}),
    },
    stdio: process.env.WEBHOOK_TEST_DEBUG ? 'inherit' : 'ignore',
  });
}

describe('webhook dispatcher: killed and restarted', function () {
  this.timeout(120_000);
  let world: WebhooksWorld;
  let sink: Sink;
  let env: ReturnType<typeof dispatcherEnv>;
  let child: ChildProcess | undefined;

  before(async () => {
    world = await startWebhooksWorld();
    sink = await startSink();
    env = dispatcherEnv(world, { WEBHOOK_LEASE_MS: '1500' });
    // declares the durable events queue, as a deployed dispatcher has, so nothing published
    // before the child process is up goes unrouted
    const declaring = await startWebhookDispatcher(env);
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);
    await declaring.stop();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await sink?.close();
    await world?.stop();
    if (env) await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  });

  it(`delivers all ${EVENTS} events to both webhooks although the dispatcher was SIGKILLed midway`, async () => {
    // the slow target keeps deliveries in flight when the kill comes
    sink.script('/slow', [{ status: 200 }]);
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    for (const path of ['/fast', '/slow'])
      expect(
        (await client.request('PUT', `${base}/webhook`, webhookBody(`${sink.url}${path}`))).status,
      ).to.equal(200);

    child = startChild(env);
    const published: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const res = await client.request<{ eventId: string }>(
        'PUT',
        `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
        {
          dvcID: `kyc-${i}`,
          docType: 'passport',
          status: 'verified',
        },
      );
      published.push(res.body.eventId);
      if (i === Math.floor(EVENTS / 2)) {
        await sink.waitFor(5, '/fast');
        child.kill('SIGKILL');
        await new Promise((resolve) => child!.once('exit', resolve));
        child = startChild(env);
      }
    }
    const seen = (path: string) =>
      new Set(
        sink.received
          .filter((r) => r.path === path)
          .map((r) => (JSON.parse(r.body) as { eventId: string }).eventId),
      );
    await eventually(
      'every event at both receivers',
      () => seen('/fast').size >= EVENTS && seen('/slow').size >= EVENTS,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const path of ['/fast', '/slow']) {
      const missing = published.filter((id) => !seen(path).has(id));
      expect(missing.length, `${path}: ${missing.length} of ${EVENTS} missing`).to.equal(0);
    }
  });
});
