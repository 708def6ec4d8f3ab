// Webhook delivery: events published on the broker to signed callbacks received by a local sink,
// against a plain loop of HTTP POSTs to the same sink in the same run.
import { randomUUID } from 'node:crypto';
import { startWebhookDispatcher } from '../services/webhook-dispatcher/src/start.ts';
import { startSink } from '../services/webhook-dispatcher/test/sink.ts';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
} from '../services/webhook-dispatcher/test/support.ts';
import { webhookBody } from '../services/webhooks-gateway/test/support.ts';
import type { Comparison, Measurement } from './harness.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

export async function webhookBenchmarks(
  events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000),
): Promise<Comparison[]> {
  const world = await startWebhooksWorld();
  const sink = await startSink();
  const env = dispatcherEnv(world, {
    WEBHOOK_POLL_MS: '200',
    WEBHOOK_TARGET_CONCURRENCY: '32',
    LOG_LEVEL: 'silent',
  });
  const dispatcher = await startWebhookDispatcher(env);
  try {
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    await world
      .client('service')
      .request('PUT', `${base}/webhook`, webhookBody(`${sink.url}/bench`));

    // baseline: the same number of POSTs of a similar body, one after another
    const body = JSON.stringify({
      eventId: randomUUID(),
      data: { dvcID: 'kyc', docType: 'passport', status: 'verified' },
    });
    const plainStart = performance.now();
    for (let i = 0; i < events; i++)
      await fetch(`${sink.url}/plain`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
    const plain: Measurement = {
      name: 'plain POST loop',
      opsPerSecond: events / ((performance.now() - plainStart) / 1000),
    };

    const received = new Map<string, number>();
    const before = sink.received.length;
    const start = performance.now();
    const publishedAt = new Map<string, number>();
    await Promise.all(
      Array.from({ length: events }, async (_, i) => {
        const eventId = randomUUID();
        publishedAt.set(eventId, performance.now());
        await dispatcher.runtime.broker.publishEvent({
          eventId,
          eventName: 'E_IDV_DOCUMENT_VALIDATE',
          version: 1,
          tenantId: world.community.tenantId,
          communityId: world.community.id,
          ts: Date.now(),
          data: { dvcID: `kyc-${i}`, docType: 'passport', status: 'verified' },
        });
      }),
    );
    const until = Date.now() + 120_000;
    while (received.size < events && Date.now() < until) {
      for (const r of sink.received.slice(before)) {
        if (r.path !== '/bench') continue;
        const id = (JSON.parse(r.body) as { eventId: string }).eventId;
        if (!received.has(id)) received.set(id, performance.now());
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const elapsed = (performance.now() - start) / 1000;
    const latencies = [...received]
      .map(([id, at]) => at - (publishedAt.get(id) ?? at))
      .sort((a, b) => a - b);
    const dispatched: Measurement = {
      name: 'event to signed callback',
      opsPerSecond: received.size / elapsed,
    };
    return [
      {
        suite: 'webhook delivery',
        baseline: plain,
        candidate: dispatched,
        note: `${received.size}/${events} events delivered; latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (goal: ratio >= 0.5)`,
      },
    ];
  } finally {
    await dispatcher.stop();
    await sink.close();
    await world.stop();
    await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  }
}
