// Receivers that accept a callback and never answer (review of issue 25, finding 4). Tenant B's
// webhooks on many origins (several hosts of its own, here ports) hold at most the tenant's share
// of the callbacks in flight, so tenant A's callbacks still come at once; before, each origin gave
// B another share and B's hanging callbacks held every event the dispatcher takes at once. And a
// webhook whose receiver hangs opens its breaker: its calls end only at the timeout, and with the
// webhook's few slots never reached the volume the breaker waited for.
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

/** A receiver on its own port: answers 200, or takes the request and never answers. */
interface Receiver {
  url: string;
  /** requests received */
  received: number;
  /** requests received and not answered, now */
  hanging: number;
  close(): Promise<void>;
}

async function startReceiver(hangs: boolean): Promise<Receiver> {
  const receiver = { url: '', received: 0, hanging: 0, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      receiver.received += 1;
      if (!hangs) return void res.writeHead(200).end('{}');
      receiver.hanging += 1;
      res.on('close', () => (receiver.hanging -= 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

const until = (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) =>
  eventually(what, check, { timeoutMs: ms, intervalMs: 25 });

interface Tenant {
  client: IdvClient;
  base: string;
}

describe('webhook dispatcher: receivers that never answer', function () {
  this.timeout(90_000);
  let world: WebhooksWorld;
  let dispatcher: StartedDispatcher | undefined;
  let queue: string | undefined;
  const receivers: Receiver[] = [];
  let tenantA: Tenant;
  let tenantB: Tenant;

  const receiver = async (hangs: boolean) => {
    const started = await startReceiver(hangs);
    receivers.push(started);
    return started;
  };
  const start = async (settings: Record<string, string>) => {
    const env = dispatcherEnv(world, settings);
    queue = env.WEBHOOK_EVENTS_QUEUE;
    dispatcher = await startWebhookDispatcher(env);
    await dispatcher.runtime.broker.waitUntilConnected(15_000);
  };
  const subscribe = async (tenant: Tenant, url: string, extra: Record<string, unknown> = {}) => {
    const res = await tenant.client.request<{ _id: string }>(
      'PUT',
      `${tenant.base}/webhook`,
      webhookBody(url, extra),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body._id;
  };
  const publish = async (tenant: Tenant, dvcID: string) => {
    const res = await tenant.client.request<{ eventId: string }>(
      'PUT',
      `${tenant.base}/event/E_IDV_DOCUMENT_VALIDATE`,
      { dvcID, docType: 'passport', status: 'verified' },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.eventId;
  };
  /** The ids of the events whose delivery to `webhookId` is recorded. */
  const recordedEvents = async (tenant: Tenant, webhookId: string) =>
    (
      await tenant.client.request<{ data: { eventId: string }[] }>(
        'GET',
        `${tenant.base}/webhook/${webhookId}/deliveries`,
      )
    ).body.data.map((d) => d.eventId);
  const hangingNow = () => receivers.reduce((sum, r) => sum + r.hanging, 0);
  const breakers = async (state: string) => {
    const text = await (await fetch(`${dispatcher!.server.url}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('webhook_breakers{') && l.includes(`state="${state}"`));
    return Number(line?.split(' ')[1] ?? NaN);
  };

  before(async () => {
    world = await startWebhooksWorld();
    const base = (c: { tenantId: string; id: string }) => `/tenant/${c.tenantId}/community/${c.id}`;
    tenantA = { client: world.client('service'), base: base(world.community) };
    tenantB = { client: world.client('serviceElsewhere'), base: base(world.otherCommunity) };
    expect(world.otherCommunity.tenantId).to.not.equal(world.community.tenantId);
  });
  afterEach(async () => {
    // the receivers first: their hanging calls end at once rather than at their timeout
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await dispatcher?.stop();
    dispatcher = undefined;
    if (queue) await deleteQueue(queue);
    queue = undefined;
  });
  after(async () => world?.stop());

  it("holds B's hanging callbacks on many origins to its tenant's share, and A's callback comes at once", async () => {
    const ORIGINS = 6;
    await start({
      WEBHOOK_MAX_IN_FLIGHT: String(ORIGINS),
      WEBHOOK_TENANT_CONCURRENCY: '3',
      WEBHOOK_TARGET_CONCURRENCY: '2',
      // far longer than the test looks: a hanging callback holds its slots throughout
      WEBHOOK_HTTP_TIMEOUT_MS: '60000',
      WEBHOOK_LEASE_MS: '120000',
    });
    // one webhook per origin of B, each taking only its own events: every event of B holds one
    // hanging callback, on an origin (and so a share of the origin) of its own
    for (let i = 0; i < ORIGINS; i++) {
      const hangs = await receiver(true);
      await subscribe(tenantB, `${hangs.url}/hook`, { query: [{ dvcID: `kyc-bravo-${i}` }] });
    }
    const alpha = await receiver(false);
    await subscribe(tenantA, `${alpha.url}/hook`);
    for (let i = 0; i < ORIGINS; i++) await publish(tenantB, `kyc-bravo-${i}`);
    await until("B's callbacks hanging", () => hangingNow() >= 3);

    // before: B's six hanging callbacks held all six events in flight; A's waited a minute
    await publish(tenantA, 'kyc-alpha');
    await until("A's callback", () => alpha.received === 1, 20_000);
    expect(hangingNow(), "B's callbacks in flight, its tenant's share").to.equal(3);
  });

  it('opens the breaker of a webhook whose receiver takes each call and never answers', async () => {
    await start({
      WEBHOOK_TARGET_CONCURRENCY: '2',
      WEBHOOK_HTTP_TIMEOUT_MS: '5000',
      WEBHOOK_LEASE_MS: '20000',
      WEBHOOK_BREAKER_RESET_MS: '60000',
    });
    const hangs = await receiver(true);
    const hook = await subscribe(tenantB, `${hangs.url}/hook`, {
      retryCodes: [503],
      retryCount: 2,
    });
    for (let i = 0; i < 6; i++) await publish(tenantB, `kyc-bravo-hang-${i}`);
    // before: two calls at a time, each failing at the 5 s timeout, never 10 in opossum's 10 s
    // window, so the breaker stayed closed and the receiver was called again and again
    await until('the breaker open', async () => (await breakers('open')) === 1, 45_000);
    const calls = hangs.received;
    const held = await publish(tenantB, 'kyc-bravo-hang-held');
    // its delivery is recorded only once the dispatcher decided on it, here to hold it back
    await until('the held delivery recorded', async () =>
      (await recordedEvents(tenantB, hook)).includes(held),
    );
    expect(hangs.received, 'called while its breaker is open').to.equal(calls);
  });
});
