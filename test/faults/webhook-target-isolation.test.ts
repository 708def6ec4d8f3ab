// Webhook targets that hang, reset the connection or answer slowly do not hold back a healthy
// target: the healthy target's delivery latency is measured alone and then beside the bad ones,
// and it never waits for a bad target's timeout.
import { expect } from 'chai';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../../services/webhook-dispatcher/src/start.ts';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookTargets, type WebhookTargets } from '@idv/testing/webhookTargets';
import { sleep, until } from './support.ts';

const HTTP_TIMEOUT_MS = 8000;
const EVENTS = 60;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};

describe('faults: webhook targets that hang, reset or crawl', function () {
  this.timeout(120_000);
  let world: WebhooksWorld;
  let dispatcher: StartedDispatcher;
  let env: ReturnType<typeof dispatcherEnv>;
  let targets: WebhookTargets;

  before(async () => {
    targets = await startWebhookTargets();
    world = await startWebhooksWorld();
    env = dispatcherEnv(world, { WEBHOOK_HTTP_TIMEOUT_MS: String(HTTP_TIMEOUT_MS) });
    dispatcher = await startWebhookDispatcher(env);
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);
  });
  after(async () => {
    await dispatcher?.stop();
    await targets?.close();
    await world?.stop();
    if (env) await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  });

  /** Publishes EVENTS events and returns the healthy target's latency for each, in ms. */
  async function latencies(): Promise<number[]> {
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    const published = new Map<string, number>();
    for (let i = 0; i < EVENTS; i++) {
      const at = Date.now();
      const res = await client.request<{ eventId: string }>(
        'PUT',
        `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
        { dvcID: `kyc-${i}`, docType: 'passport', status: 'verified' },
      );
      expect(res.status).to.equal(202);
      published.set(res.body.eventId, at);
      await sleep(10);
    }
    await until('the healthy target to receive every event', () =>
      [...published.keys()].every((id) => targets.arrivals.has(id)),
    );
    return [...published].map(([id, at]) => targets.arrivals.get(id)! - at);
  }

  it('delivers to the healthy target as fast beside them as alone', async () => {
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    const subscribe = async (url: string, extra: Record<string, unknown> = {}) =>
      expect(
        (await client.request('PUT', `${base}/webhook`, webhookBody(url, extra))).status,
      ).to.equal(200);

    await subscribe(targets.urls.healthy);
    const alone = await latencies();
    const retry = { retryCodes: [503], retryCount: 2 };
    await subscribe(targets.urls.hang, retry);
    await subscribe(targets.urls.reset, retry);
    await subscribe(targets.urls.slow, retry);
    await sleep(500); // the dispatcher learns of new webhooks by notification
    const beside = await latencies();

    const line = (name: string, v: number[]) =>
      `${name} p50 ${percentile(v, 50)} ms, p95 ${percentile(v, 95)} ms, max ${Math.max(...v)} ms`;
    console.log(`      healthy target alone: ${line('', alone)}`);
    console.log(
      `      beside hang/reset/slow: ${line('', beside)}; bad targets were called ${JSON.stringify(targets.badCalls)}`,
    );
    expect(targets.badCalls.hang, 'the hanging target was called').to.be.greaterThan(0);
    expect(targets.badCalls.reset, 'the resetting target was called').to.be.greaterThan(0);
    expect(targets.badCalls.slow, 'the slow target was called').to.be.greaterThan(0);
    // had a healthy delivery queued behind a hung one, it would have waited out HTTP_TIMEOUT_MS
    expect(Math.max(...beside), 'slowest healthy delivery beside the bad targets').to.be.below(
      HTTP_TIMEOUT_MS,
    );
  });
});
