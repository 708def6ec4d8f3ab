// Per-target isolation in the dispatcher: deliveries to a healthy target per second beside three
// other healthy targets, then beside three bad ones subscribed to the same events instead (one hangs
// until the callback timeout, one resets the connection, one answers after two seconds). Both rounds
// fan each event out to four webhooks, so the dispatcher's work is alike and a ratio near 1 means the
// bad targets' behaviour costs the healthy one nothing. The rate alone is reported too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWebhookDispatcher } from '../services/webhook-dispatcher/src/start.ts';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  waitForQueue,
} from '@idv/testing/dispatcherWorld';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookTargets } from '@idv/testing/webhookTargets';
import { UNLIMITED_RATES, type Comparison, type LoadMeasurement } from './harness.ts';

const EVENTS = 400;
const IN_FLIGHT = 8;

/**
 * A healthy peer target answering 200 at once. Its own origin keeps this round comparable with
 * earlier results; slots and breakers are per webhook now, so a shared origin would do as well.
 */
async function startPeer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/peer` };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function webhookIsolationBenchmarks(): Promise<Comparison[]> {
  const targets = await startWebhookTargets();
  const peers = await Promise.all([1, 2, 3].map(startPeer));
  const world = await startWebhooksWorld(UNLIMITED_RATES);
  const env = dispatcherEnv(world, { WEBHOOK_HTTP_TIMEOUT_MS: '5000', LOG_LEVEL: 'silent' });
  const dispatcher = await startWebhookDispatcher(env);
  try {
    await waitForQueue(env.WEBHOOK_EVENTS_QUEUE);
    const client = world.client('service');
    const base = `/tenant/${world.community.tenantId}/community/${world.community.id}`;
    const subscribe = async (url: string, extra: Record<string, unknown> = {}) => {
      const res = await client.request<{ _id: string }>(
        'PUT',
        `${base}/webhook`,
        webhookBody(url, extra),
      );
      if (res.status !== 200) throw new Error(`webhook not created: ${res.status}`);
      return res.body._id;
    };

    /** EVENTS events through the intake; healthy deliveries per second and their latency. */
    const round = async (name: string): Promise<LoadMeasurement> => {
      const published = new Map<string, number>();
      const started = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next++ < EVENTS) {
            const at = Date.now();
            const res = await client.request<{ eventId: string }>(
              'PUT',
              `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
              { dvcID: 'kyc', docType: 'passport', status: 'verified' },
            );
            if (res.status !== 202) throw new Error(`event refused: ${res.status}`);
            published.set(res.body.eventId, at);
          }
        }),
      );
      const deadline = Date.now() + 120_000;
      while ([...published.keys()].some((id) => !targets.arrivals.has(id))) {
        if (Date.now() > deadline) throw new Error(`${name}: not every event was delivered`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const arrived = [...published].map(([id, at]) => targets.arrivals.get(id)! - at);
      const last = Math.max(...[...published.keys()].map((id) => targets.arrivals.get(id)!));
      arrived.sort((a, b) => a - b);
      return {
        name,
        opsPerSecond: EVENTS / ((last - started) / 1000),
        p50Ms: percentile(arrived, 50),
        p99Ms: percentile(arrived, 99),
      };
    };

    await subscribe(targets.urls.healthy);
    await round('warm-up');
    const alone = await round('healthy target alone');
    const retry = { retryCodes: [503], retryCount: 2 };
    const peerIds = await Promise.all(peers.map((peer) => subscribe(peer.url, retry)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const besideHealthy = await round('beside three healthy targets');
    for (const id of peerIds) await client.request('DELETE', `${base}/webhook/${id}`);
    await subscribe(targets.urls.hang, retry);
    await subscribe(targets.urls.reset, retry);
    await subscribe(targets.urls.slow, retry);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const beside = await round('beside hang, reset, slow');
    const latency = (m: LoadMeasurement) => `p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms`;
    return [
      {
        suite: 'webhook target isolation',
        baseline: besideHealthy,
        candidate: beside,
        note: `healthy target's deliveries of ${EVENTS} events (${IN_FLIGHT} publishers), each event also going to three other webhooks; latency from intake beside healthy ${latency(besideHealthy)}, beside the bad targets ${latency(beside)} (callback timeout 5000 ms); alone (no other webhook) ${alone.opsPerSecond.toFixed(0)} deliveries/s, ${latency(alone)}; bad targets called ${JSON.stringify(targets.badCalls)}`,
      },
    ];
  } finally {
    await dispatcher.stop();
    await targets.close();
    for (const peer of peers) await new Promise((resolve) => peer.server.close(resolve));
    await world.stop();
    await deleteQueue(env.WEBHOOK_EVENTS_QUEUE);
  }
}
