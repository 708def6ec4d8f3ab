// Two tenants' receivers on one host (one origin, different paths): tenant B's endpoint failing
// (503s that open its breaker) or hanging (holding its slots) never delays tenant A's callbacks,
// and the dispatcher's /metrics names no receiver (no host, port or path).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { IdvClient } from '@idv/client';
import { eventually } from '@idv/testing/eventually';
import { webhookBody } from '@idv/testing/webhooksWorld';
import { startWebhookDispatcher, type StartedDispatcher } from '../src/start.ts';
import {
  deleteQueue,
  dispatcherEnv,
  startWebhooksWorld,
  type WebhooksWorld,
} from '@idv/testing/dispatcherWorld';

const PATHS = { alpha: '/receiver-alpha', failing: '/receiver-bravo-503', hanging: '/bravo-hangs' };

/** One shared host: A's path answers 200, B's answers 503 or never. */
interface SharedHost {
  url: string;
  port: number;
  /** path → Date.now() of each request received */
  calls: Map<string, number[]>;
  close(): Promise<void>;
}

async function startSharedHost(): Promise<SharedHost> {
  const calls = new Map<string, number[]>();
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      calls.set(path, [...(calls.get(path) ?? []), Date.now()]);
      if (path === PATHS.hanging) return void hanging.push(res);
      res.writeHead(path === PATHS.failing ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const until = (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) =>
  eventually(what, check, { timeoutMs: ms, intervalMs: 25 });

describe('webhook dispatcher: tenants sharing a receiver host', function () {
  this.timeout(60_000);
  let world: WebhooksWorld;
  let host: SharedHost;
  let dispatcher: StartedDispatcher;
  let queue: string;
  let tenantA: { client: IdvClient; base: string };
  let tenantB: { client: IdvClient; base: string };

  const subscribe = async (
    tenant: typeof tenantA,
    path: string,
    extra: Record<string, unknown> = {},
  ) => {
    const res = await tenant.client.request<{ _id: string }>(
      'PUT',
      `${tenant.base}/webhook`,
      webhookBody(`${host.url}${path}`, extra),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body._id;
  };
  const publish = async (tenant: typeof tenantA, dvcID: string) => {
    const res = await tenant.client.request('PUT', `${tenant.base}/event/E_IDV_DOCUMENT_VALIDATE`, {
      dvcID,
      docType: 'passport',
      status: 'verified',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
  };
  const callsTo = (path: string) => host.calls.get(path)?.length ?? 0;
  /** ms from publishing one event of A to its callback's arrival */
  const deliveredToA = async (): Promise<number> => {
    const before = callsTo(PATHS.alpha);
    const published = Date.now();
    await publish(tenantA, 'kyc-alpha');
    await until('A callback', () => callsTo(PATHS.alpha) > before, 10_000).catch(() => undefined);
    const arrived = host.calls.get(PATHS.alpha)?.[before];
    return arrived === undefined ? Infinity : arrived - published;
  };
  const deliveries = async (tenant: typeof tenantA, webhookId: string) =>
    (
      await tenant.client.request<{ data: unknown[] }>(
        'GET',
        `${tenant.base}/webhook/${webhookId}/deliveries`,
      )
    ).body.data.length;
  const metrics = async () => (await fetch(`${dispatcher.server.url}/metrics`)).text();
  /** the value of `name` in the series whose labels include `label` (beside the default ones) */
  const sample = (text: string, name: string, label: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name}{`) && line.includes(label))
        ?.split(' ')[1] ?? NaN,
    );

  before(async () => {
    world = await startWebhooksWorld();
    host = await startSharedHost();
    // pre-fix these made the whole origin wait: 2 slots for all of it, and one breaker open a minute
    const env = dispatcherEnv(world, {
      WEBHOOK_TARGET_CONCURRENCY: '2',
      WEBHOOK_HTTP_TIMEOUT_MS: '5000',
      WEBHOOK_LEASE_MS: '10000',
      WEBHOOK_BREAKER_RESET_MS: '60000',
    });
    queue = env.WEBHOOK_EVENTS_QUEUE;
    dispatcher = await startWebhookDispatcher(env);
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
    const base = (c: { tenantId: string; id: string }) => `/tenant/${c.tenantId}/community/${c.id}`;
    tenantA = { client: world.client('service'), base: base(world.community) };
    tenantB = { client: world.client('serviceElsewhere'), base: base(world.otherCommunity) };
    expect(world.otherCommunity.tenantId).to.not.equal(world.community.tenantId);
    await subscribe(tenantA, PATHS.alpha);
    expect(await deliveredToA(), 'A alone').to.be.below(3000);
  });
  after(async () => {
    await dispatcher?.stop();
    await host?.close();
    await world?.stop();
    if (queue) await deleteQueue(queue);
  });

  it("keeps A's callbacks prompt while B's endpoint on the same origin answers 503 and its breaker is open", async () => {
    const failing = await subscribe(tenantB, PATHS.failing, { retryCodes: [503], retryCount: 0 });
    for (let i = 0; i < 12; i++) await publish(tenantB, `kyc-bravo-${i}`);
    // every event of B is handled (attempted, or held back by an open breaker) before A's comes
    await until('B deliveries recorded', async () => (await deliveries(tenantB, failing)) >= 12);

    expect(await deliveredToA(), "A's callback beside B's open breaker").to.be.below(3000);

    // B's breaker really is open (12 answers 503 in a row): its next event is held back, not sent
    expect(sample(await metrics(), 'webhook_breakers', 'state="open"')).to.equal(1);
    const bCalls = callsTo(PATHS.failing);
    await publish(tenantB, 'kyc-bravo-held');
    // its delivery is recorded only once the dispatcher decided on it, here to hold it back
    await until(
      'the held delivery recorded',
      async () => (await deliveries(tenantB, failing)) >= 13,
    );
    expect(callsTo(PATHS.failing), 'B called while its breaker is open').to.equal(bCalls);
    await tenantB.client.request('DELETE', `${tenantB.base}/webhook/${failing}`);
  });

  it("keeps A's callbacks prompt while B's endpoint on the same origin hangs", async () => {
    await subscribe(tenantB, PATHS.hanging, { retryCodes: [503], retryCount: 2 });
    for (let i = 0; i < 6; i++) await publish(tenantB, `kyc-bravo-hang-${i}`);
    await until('B holding its two slots', () => callsTo(PATHS.hanging) >= 2, 3000).catch(
      () => undefined,
    );

    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) latencies.push(await deliveredToA());
    expect(Math.max(...latencies), `A's callbacks beside B hanging: ${latencies}`).to.be.below(
      3000,
    );
    expect(callsTo(PATHS.hanging), 'B held to its own slots').to.equal(2);
  });

  it('serves /metrics without any receiver host, port, path or webhook', async () => {
    const text = await metrics();
    expect(text).to.match(/^webhook_breakers\{[^}]*state="open"[^}]*\} \d+$/m);
    expect(sample(text, 'webhook_callbacks_deferred_total', 'reason="breaker_open"')).to.be.above(
      0,
    );
    for (const secret of [host.url, '127.0.0.1', `:${host.port}`, ...Object.values(PATHS)])
      expect(text, secret).to.not.contain(secret);
    expect(text).to.not.match(/\btarget="/);
  });
});
