// Webhook delivery: events published on the broker to signed callbacks received by a local sink,
// against a plain loop of HTTP POSTs to the same sink in the same run. A warm-up of both, then
// several rounds (baseline and dispatcher back to back in each) and the medians: the machine is
// shared and noisy, so one round proves little.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { testAmqpUrl } from '@idv/testing/testServers';
import { startWebhookDispatcher } from '../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { UNLIMITED_RATES, type Comparison } from './harness.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

interface Round {
  plainPerSecond: number;
  dispatchedPerSecond: number;
  delivered: number;
  p50Ms: number;
  p99Ms: number;
}

/** One POST after another, the way a naive caller would send the same number of callbacks. */
async function plainLoop(sink: Sink, events: number): Promise<number> {
  const body = JSON.stringify({
    eventId: randomUUID(),
    data: { dvcID: 'kyc', docType: 'passport', status: 'verified' },
  });
  const start = performance.now();
  for (let i = 0; i < events; i++) {
    const res = await fetch(`${sink.url}/plain`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    await res.arrayBuffer();
  }
  return events / ((performance.now() - start) / 1000);
}

// The events' producer runs on its own thread, as producers are other services: publishing
// with confirms on the dispatcher's event loop would charge the load generator to the dispatcher
// (the baseline carries nothing of the kind). Plain amqplib, the way libs/broker publishes events
// (persistent JSON, routing key = event name, messageId = eventId), then one confirm wait.
const PUBLISHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const amqp = require('amqplib');
(async () => {
  const connection = await amqp.connect(workerData.url);
  const channel = await connection.createConfirmChannel();
  parentPort.on('message', async (burst) => {
    if (burst === 'close') return void (await connection.close(), parentPort.close());
    for (let i = 0; i < burst.events; i++) {
      const event = { eventId: randomUUID(), eventName: 'E_IDV_DOCUMENT_VALIDATE', version: 1,
        tenantId: burst.tenantId, communityId: burst.communityId, ts: Date.now(),
        data: { dvcID: 'kyc-' + i, docType: 'passport', status: 'verified' } };
      channel.publish('events', event.eventName, Buffer.from(JSON.stringify(event)), {
        persistent: true, contentType: 'application/json', messageId: event.eventId });
    }
    await channel.waitForConfirms();
    parentPort.postMessage('published');
  });
  parentPort.postMessage('ready');
})();
`;

interface Publisher {
  burst(events: number): Promise<void>;
  close(): Promise<void>;
}

async function startPublisher(url: string, world: WebhooksWorld): Promise<Publisher> {
  const worker = new Worker(PUBLISHER, { eval: true, workerData: { url } });
  await once(worker, 'message');
  const { tenantId, id: communityId } = world.community;
  return {
    async burst(events) {
      worker.postMessage({ events, tenantId, communityId });
      await once(worker, 'message');
    },
    async close() {
      worker.postMessage('close');
      await once(worker, 'exit');
    },
  };
}

/** A burst of events from the producer thread, timed until the sink has a callback for each. */
async function dispatchBurst(
  publisher: Publisher,
  sink: Sink,
  events: number,
): Promise<Omit<Round, 'plainPerSecond'>> {
  const latencies: number[] = [];
  let seen = sink.received.length;
  const start = performance.now();
  await publisher.burst(events);
  const until = Date.now() + 120_000;
  while (latencies.length < events && Date.now() < until) {
    // only the callbacks that arrived since the last look: the poll must not load the CPU it measures
    for (; seen < sink.received.length; seen++) {
      const r = sink.received[seen]!;
      // event ts is the producer's Date.now() at publish: latency in ms across threads
      if (r.path === '/bench')
        latencies.push(Date.now() - (JSON.parse(r.body) as { ts: number }).ts);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    dispatchedPerSecond: latencies.length / elapsed,
    delivered: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

export async function webhookBenchmarks(
  events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000),
  rounds = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 5),
): Promise<Comparison[]> {
  const world = await startWebhooksWorld(UNLIMITED_RATES);
  const sink = await startSink();
  // the dispatcher's defaults (per-target cap 8, lease, timeout, poll), not the tests' short ones
  const env = dispatcherEnv(world, {
    WEBHOOK_POLL_MS: '1000',
    WEBHOOK_HTTP_TIMEOUT_MS: '10000',
    WEBHOOK_LEASE_MS: '30000',
    WEBHOOK_RETRY_BASE_MS: '5000',
    LOG_LEVEL: 'silent',
  });
  const dispatcher = await startWebhookDispatcher(env);
  let publisher: Publisher | undefined;
  try {
    publisher = await startPublisher(await testAmqpUrl(), world);
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    await world
      .client('service')
      .request('PUT', `${base}/webhook`, webhookBody(`${sink.url}/bench`));

    // warm-up, not counted: the fetch loop needs some 5000 requests before its JIT settles (it
    // speeds up 3x on the way), the dispatcher a couple of bursts (connections, caches, JIT)
    await plainLoop(sink, Number(process.env.BENCH_WEBHOOK_WARMUP ?? 5000));
    for (let i = 0; i < 2; i++) await dispatchBurst(publisher, sink, events);

    const results: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const plainPerSecond = await plainLoop(sink, events);
      results.push({ plainPerSecond, ...(await dispatchBurst(publisher, sink, events)) });
    }
    const ratios = results.map((r) => r.dispatchedPerSecond / r.plainPerSecond);
    const delivered = results.reduce((n, r) => n + r.delivered, 0);
    return [
      {
        suite: 'webhook delivery',
        baseline: {
          name: 'plain POST loop (one at a time)',
          opsPerSecond: median(results.map((r) => r.plainPerSecond)),
        },
        candidate: {
          name: 'event to signed callback (per-target cap 8)',
          opsPerSecond: median(results.map((r) => r.dispatchedPerSecond)),
        },
        note:
          `medians of ${rounds} rounds of ${events} events after a warm-up; ` +
          `${delivered}/${rounds * events} delivered; ratio per round ${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)} (median ${median(ratios).toFixed(2)}); ` +
          `latency from publish p50 ${median(results.map((r) => r.p50Ms)).toFixed(0)} ms, ` +
          `p99 ${median(results.map((r) => r.p99Ms)).toFixed(0)} ms (a burst: later events queue behind earlier ones) (goal: ratio >= 0.5)`,
      },
    ];
  } finally {
    await publisher?.close();
    await dispatcher.stop();
    await sink.close();
    await world.stop();
    await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  }
}
