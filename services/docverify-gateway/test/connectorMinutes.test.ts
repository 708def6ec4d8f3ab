// Connector calls per minute through the real path: /verify -> gateway -> RabbitMQ -> a connector
// worker -> the provider sandbox, with verifiers the sandbox fails (503), makes slow or leaves
// hanging past the worker's provider timeout; the gateway flushes its counts every 200 ms. Then two
// writers adding to the same rows at once (replicas), the flush at stop, and the retention sweep.
import { expect } from 'chai';
import type { IdvClient } from '@idv/client';
import { createLogger } from '@idv/observability';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import { eventually } from '@idv/testing/eventually';
import { emptyCounts, type MinuteCounts } from '../src/connectors/connectorCallStats.ts';
import { ConnectorMinuteStore } from '../src/connectors/connectorMinuteStore.ts';
import { ConnectorCalls } from '../src/connectors/connectorCalls.ts';

interface Row {
  verifier_tag: string;
  kind: string;
  connector_type: string;
  calls: number;
  errors: number;
  timeouts: number;
  total_ms: string;
  max_ms: number;
  le_100_ms: number;
  le_250_ms: number;
  le_500_ms: number;
  le_1000_ms: number;
  over_5000_ms: number;
}

describe('docverify gateway: connector calls per minute', function () {
  this.timeout(90_000);
  let world: VerifyWorld;
  let caller: IdvClient;

  /** The community's rows summed over their minutes, per verifier. */
  const rows = async () => {
    const found = (await world.platform.database
      .db('docverify.connector_minutes')
      .where({ community_id: world.platform.community.id })
      .select('verifier_tag', 'kind', 'connector_type')
      .sum({
        calls: 'calls',
        errors: 'errors',
        timeouts: 'timeouts',
        total_ms: 'total_ms',
        le_100_ms: 'le_100_ms',
        le_250_ms: 'le_250_ms',
        le_500_ms: 'le_500_ms',
        le_1000_ms: 'le_1000_ms',
        over_5000_ms: 'over_5000_ms',
      })
      .max({ max_ms: 'max_ms' })
      .groupBy('verifier_tag', 'kind', 'connector_type')) as Record<string, unknown>[];
    return new Map(
      found.map((r) => [
        r.verifier_tag as string,
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
          ]),
        ) as unknown as Row,
      ]),
    );
  };

  /** Waits for the gateway's flush to show `calls` calls of `tag`. */
  const callsOf = (tag: string, calls: number) =>
    eventually(
      `${calls} calls of ${tag} flushed`,
      async () => {
        const row = (await rows()).get(tag);
        return row && row.calls >= calls ? row : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 100 },
    );

  before(async () => {
    world = await startVerifyWorld({
      name: 'connector-minutes',
      platform: { CONNECTOR_STATS_FLUSH_MS: '200' },
      workerEnv: { PROVIDER_HTTP_TIMEOUT_MS: '500', BREAKER_TIMEOUT_MS: '1500' },
    });
    caller = world.client('docverify', 'community');
    const admin = world.client('docverify', 'service');
    const c = world.platform.community;
    const { url } = world.sandbox;
    for (const [tag, connectorUrl] of [
      ['failing', `${url}/fault/status=503`],
      ['hanging', `${url}/fault/hang`],
      ['slow', `${url}/fault/latency=300`],
    ]) {
      const res = await admin.request('PUT', `/verifier/community/${c.id}`, {
        name: tag,
        tag,
        type: 'face_compare_b',
        connectorUrl,
        config: { apiKey: 'sandbox-key' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    for (const [tag, verifiers] of [
      ['failover', ['failing', 'hanging', 'provider']],
      ['slow', ['slow']],
    ] as const) {
      const res = await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
        tenantId: c.tenantId,
        tag,
        face_compare: verifiers.map((verifier) => ({ verifier })),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  after(async () => world?.stop());

  it('counts each call by verifier, kind and connector type: errors, timeouts, durations in their buckets', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await caller.encryptedRequest<{ certifications: { verifier: string }[] }>(
        'POST',
        '/verify',
        { ...world.verifyBody(), dvcID: 'failover' },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.certifications[0]?.verifier).to.equal('provider');
    }
    const slow = await caller.encryptedRequest('POST', '/verify', {
      ...world.verifyBody(),
      dvcID: 'slow',
    });
    expect(slow.status).to.equal(200);

    const provider = await callsOf('provider', 2);
    expect(provider).to.include({
      kind: 'face_compare',
      connector_type: 'face_compare_b',
      calls: 2,
      errors: 0,
      timeouts: 0,
    });
    const failing = await callsOf('failing', 2);
    expect(failing).to.include({ calls: 2, errors: 2, timeouts: 0 });
    const hanging = await callsOf('hanging', 2);
    expect(hanging).to.include({ calls: 2, errors: 0, timeouts: 2 });
    // the worker gave up on the provider after its 500 ms
    expect(hanging.max_ms).to.be.at.least(500);
    expect(hanging.le_100_ms + hanging.le_250_ms + hanging.le_500_ms).to.equal(0);
    const slowRow = await callsOf('slow', 1);
    expect(slowRow).to.include({ calls: 1, errors: 0, le_100_ms: 0, le_250_ms: 0 });
    expect(slowRow.max_ms).to.be.within(300, 5000);
    expect(Number(slowRow.total_ms)).to.equal(slowRow.max_ms);
  });

  it('adds the counts of replicas flushing the same minute at once, and keeps the larger max', async () => {
    const { db } = world.platform.database;
    const key = {
      communityId: world.platform.community.id,
      minute: new Date('2030-01-01T00:01:00Z'),
      verifierTag: 'replicated',
      kind: 'face_compare',
      connectorType: 'face_compare_b',
    };
    const counts = (calls: number, maxMs: number): MinuteCounts => {
      const c = emptyCounts();
      Object.assign(c, { calls, errors: 1, totalMs: calls * 10, maxMs });
      c.buckets[0] = calls;
      return c;
    };
    const replicas = [new ConnectorMinuteStore(db), new ConnectorMinuteStore(db)];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        replicas[i % 2]!.add([{ key, counts: counts(3, i * 7) }]),
      ),
    );
    const row = (await db('docverify.connector_minutes')
      .where({ verifier_tag: 'replicated' })
      .first()) as Row;
    expect(row).to.include({ calls: 30, errors: 10, max_ms: 63, le_100_ms: 30 });
    expect(Number(row.total_ms)).to.equal(300);
  });

  it('adds what is counted at stop, and the sweep deletes the minutes past their time', async () => {
    const { db } = world.platform.database;
    const store = new ConnectorMinuteStore(db);
    const calls = new ConnectorCalls(store, createLogger({ service: 'test', level: 'silent' }));
    calls.start(60_000);
    const at = Date.parse('2020-06-01T12:00:30Z');
    for (const ms of [40, 120, 7000])
      calls.record({
        communityId: world.platform.community.id,
        verifierTag: 'at-stop',
        kind: 'face_compare',
        connectorType: 'face_compare_b',
        outcome: ms > 5000 ? 'timeout' : 'ok',
        ms,
        at,
      });
    await calls.stop();
    const row = (await db('docverify.connector_minutes')
      .where({ verifier_tag: 'at-stop' })
      .first()) as Row & { minute: Date };
    expect(row).to.include({
      calls: 3,
      timeouts: 1,
      max_ms: 7000,
      le_100_ms: 1,
      le_250_ms: 1,
      over_5000_ms: 1,
    });
    expect(row.minute.toISOString()).to.equal('2020-06-01T12:00:00.000Z');
    const swept = await store.sweep(new Date('2021-01-01T00:00:00Z'));
    expect(swept).to.equal(1);
    expect(
      await db('docverify.connector_minutes').where({ verifier_tag: 'at-stop' }).first(),
    ).to.equal(undefined);
    expect((await rows()).get('provider'), 'recent minutes stay').to.not.equal(undefined);
  });
});
