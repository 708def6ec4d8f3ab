// The event outbox (libs/db) with the real broker and database: events stored before an answer
// are published at once when the broker takes them, kept while it is away and relayed after, and
// relayed once between two replicas; the docverify gateway stores its verification events there.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@idv/contracts';
import { createBroker, type Broker } from '@idv/broker';
import { createOutboxTable, EventOutbox, type MigrationSet } from '@idv/db';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { TcpProxy } from '@idv/testing/tcpProxy';
import { eventually } from '@idv/testing/eventually';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

const outboxMigrations: MigrationSet = {
  schema: 'outboxtest',
  migrations: {
    '001_outbox': {
      up: (knex) => createOutboxTable(knex, 'outboxtest', 'event_outbox'),
      down: (knex) => knex.schema.withSchema('outboxtest').dropTableIfExists('event_outbox'),
    },
  },
};
const TABLE = 'outboxtest.event_outbox';
const tenantId = randomUUID();

const event = (n: number): EventEnvelope => ({
  eventId: randomUUID(),
  eventName: 'E_IDV_FACE_VALIDATE',
  version: 1,
  tenantId,
  communityId: randomUUID(),
  ts: Date.now(),
  data: { verificationId: randomUUID(), dvcID: `kyc-${n}`, status: 'verified' },
});

describe('event outbox', function () {
  this.timeout(60_000);
  const exchange = `test.outbox.${randomBytes(4).toString('hex')}`;
  const queue = `${exchange}.received`;
  const logger = createLogger({ service: 'outbox-test', level: 'silent' });
  let database: TestDatabase;
  let proxy: TcpProxy;
  let publisher: Broker;
  let subscriber: Broker;
  const received: string[] = [];

  const outbox = (graceMs = 0) =>
    new EventOutbox<EventEnvelope>(database.db, TABLE, (e) => publisher.publishEvent(e), logger, {
      graceMs,
    });
  const stored = async () => (await database.db(TABLE).pluck('event_id')) as string[];
  const waitReceived = (ids: string[]) =>
    eventually(`${ids.length} events received`, () => ids.every((id) => received.includes(id)), {
      timeoutMs: 10_000,
    });

  before(async () => {
    database = await createTestDatabase([outboxMigrations]);
    const url = new URL(await testAmqpUrl());
    proxy = await TcpProxy.start(url.hostname, Number(url.port || 5672));
    subscriber = createBroker({ url: url.toString(), logger, eventsExchange: exchange });
    await subscriber.waitUntilConnected(10_000);
    await subscriber.subscribeEvents(queue, ['#'], async (e) => {
      received.push(e.eventId);
    });
    url.host = `127.0.0.1:${proxy.port}`;
    publisher = createBroker({
      url: url.toString(),
      logger,
      eventsExchange: exchange,
      reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
    });
    await publisher.waitUntilConnected(10_000);
  });
  after(async () => {
    proxy?.restore();
    await publisher?.close();
    await subscriber?.close();
    await proxy?.close();
    await database?.drop();
    await deleteQueues(await testAmqpUrl(), [queue]);
  });

  it('publishes stored events at once and clears them', async () => {
    const events = [event(1), event(2)];
    const box = outbox();
    await box.add(events);
    expect(await stored()).to.have.members(events.map((e) => e.eventId));
    await box.flush(events);
    await waitReceived(events.map((e) => e.eventId));
    expect(await stored()).to.deep.equal([]);
  });

  it('clears published events together, and at once when it stops', async () => {
    const events = [event(5), event(6)];
    const box = new EventOutbox<EventEnvelope>(
      database.db,
      TABLE,
      (e) => publisher.publishEvent(e),
      logger,
      { clearEveryMs: 60_000 },
    );
    await box.add(events);
    const flushed = box.flush(events);
    await waitReceived(events.map((e) => e.eventId));
    expect(await stored(), 'waiting for the interval').to.have.members(
      events.map((e) => e.eventId),
    );
    await box.stop();
    await flushed;
    expect(await stored()).to.deep.equal([]);
  });

  it('keeps events while the broker is away and relays them once it is back', async () => {
    const box = outbox();
    const e = event(3);
    proxy.cut();
    await eventually('the publisher to see the broker gone', () => publisher.status() === 'down');
    await box.add([e]);
    await box.flush([e]);
    expect(await stored()).to.deep.equal([e.eventId]);
    expect(await box.relayOnce()).to.equal(0);
    expect(await stored()).to.deep.equal([e.eventId]);

    proxy.restore();
    await publisher.waitUntilConnected(10_000);
    expect(await box.relayOnce()).to.equal(1);
    await waitReceived([e.eventId]);
    expect(await stored()).to.deep.equal([]);
  });

  it('relays what a process stored and never published (it died), after the grace period', async () => {
    const e = event(4);
    await outbox().add([e]);
    const patient = outbox(60_000);
    expect(await patient.relayOnce(), 'still within the grace period').to.equal(0);
    expect(await outbox(0).relayOnce()).to.equal(1);
    await waitReceived([e.eventId]);
  });

  it('shares the rows between two relaying replicas: each event goes out once', async () => {
    const events = Array.from({ length: 60 }, (_, i) => event(100 + i));
    await outbox().add(events);
    const before = received.length;
    const [a, b] = await Promise.all([outbox().relayOnce(), outbox().relayOnce()]);
    expect(a + b).to.equal(60);
    await waitReceived(events.map((e) => e.eventId));
    expect(received.length - before).to.equal(60);
    expect(await stored()).to.deep.equal([]);
  });
});

describe('docverify event outbox', function () {
  this.timeout(60_000);
  let world: VerifyWorld;

  before(async () => {
    world = await startVerifyWorld({ name: 'dvoutbox', dispatcher: true });
    await world.subscribe('/faces', ['E_IDV_FACE_VALIDATE']);
  });
  after(async () => world?.stop());

  const outboxRows = async () =>
    (await world.platform.database.db('docverify.event_outbox').pluck('event_id')) as string[];

  it('publishes the event of a verification and clears it from the outbox', async () => {
    const res = await world
      .client('docverify', 'community')
      .encryptedRequest<{ verificationId: string }>('POST', '/verify', world.verifyBody());
    expect(res.status).to.equal(200);
    await eventually('the verification event', () =>
      world.verificationEvents('/faces').includes(res.body.verificationId),
    );
    await eventually('the outbox cleared', async () => (await outboxRows()).length === 0);
  });

  it('tells subscribers of E_IDV_VERIFIER_CHANGED of each verifier write, without its config', async () => {
    await world.subscribe('/verifiers', ['E_IDV_VERIFIER_CHANGED']);
    const c = world.platform.community.id;
    const admin = world.client('docverify', 'service');
    const created = await admin.request<{ id: string }>('PUT', `/verifier/community/${c}`, {
      name: 'second',
      tag: 'second',
      type: 'face_compare_b',
      connectorUrl: world.sandbox.url,
      config: { apiKey: 'sandbox-secret-key' },
    });
    expect(created.status).to.equal(200);
    const renamed = await admin.request('PATCH', `/verifier/community/${c}/second`, {
      name: 'renamed',
    });
    expect(renamed.status).to.equal(200);
    expect((await admin.request('DELETE', `/verifier/community/${c}/second`)).status).to.equal(204);
    const callbacks = await world.sink!.waitFor(3, '/verifiers', 15_000);
    const changes = callbacks.map(
      (r) => JSON.parse(r.body) as { data: { verifierId: string; tag: string; change: string } },
    );
    expect(changes.map((e) => e.data.change)).to.have.members(['created', 'updated', 'deleted']);
    for (const e of changes)
      expect(e.data).to.include({ verifierId: created.body.id, tag: 'second' });
    expect(callbacks.map((r) => r.body).join()).not.to.contain('sandbox-secret-key');
  });

  it('relays an event a previous process stored and never published', async () => {
    const { community } = world.platform;
    const left = event(1);
    Object.assign(left, { tenantId: community.tenantId, communityId: community.id });
    await world.platform.database.db('docverify.event_outbox').insert({
      event_id: left.eventId,
      envelope: JSON.stringify(left),
      created_at: new Date(Date.now() - 60_000),
    });
    await eventually('the left-behind event relayed', () =>
      world.delivered('/faces').includes(left.eventId),
    );
    expect(await outboxRows()).to.deep.equal([]);
  });
});
