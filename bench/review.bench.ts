// The review queue (issue 28): GET /review/community/{c}/cases over 10,000 cases of the community
// (and 10,000 of another, which the queries must step over), by an operator's bearer token, as
// the console asks for it: the first page, by state, by assignee, overdue, and a page reached by
// its cursor 40 pages deep. Baseline: the gateway's /healthz in the same run (a bare round trip
// through the same process). Goal: p95 at most 100 ms for each query at 4 callers at once.
// The issuer's userinfo is stood in for (its answer is cached by the gateway: not what is measured).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { platformMigrations } from '@idv/platform';
import { docverifyMigrations } from '../services/docverify-gateway/src/migrations.ts';
import { UNLIMITED_RATES, type Comparison } from './harness.ts';
import { freePort, seed, startChild, stopChild, waitHealthy } from './processes.ts';

const CASES = 10_000;
const CONCURRENCY = 4;
const REQUESTS = 400;
const GOAL_P95_MS = 100;
const STATES = ['open', 'open', 'open', 'in_review', 'in_review', 'awaiting_second', 'decided'];
const ASSIGNEES = ['testy-reviewer-1', 'testy-reviewer-2', 'testy-reviewer-3'];

/** `count` cases of `community`, opened one minute apart, in batches. */
async function insertCases(database: TestDatabase, tenantId: string, communityId: string) {
  const start = Date.now() - CASES * 60_000;
  for (let offset = 0; offset < CASES; offset += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = offset + i;
      const state = STATES[n % STATES.length]!;
      const opened = new Date(start + n * 60_000);
      const claimed = state !== 'open';
      return {
        id: randomUUID(),
        community_id: communityId,
        tenant_id: tenantId,
        config_id: randomUUID(),
        dvc_id: 'bench-review',
        run_id: randomUUID(),
        session_id: n % 2 ? randomUUID() : null,
        current_run_id: randomUUID(),
        state,
        outcome: state === 'decided' ? 'approved' : null,
        four_eyes: n % 3 === 0,
        sla_minutes: 240,
        result_status: 'not_verified',
        checks: JSON.stringify([
          {
            kind: 'face_compare',
            verifier: 'bench',
            provider: 'bench',
            status: 'failed',
            score: 0.41,
          },
        ]),
        assignee: claimed ? ASSIGNEES[n % ASSIGNEES.length] : null,
        assignee_sub: claimed ? `sub-${n % ASSIGNEES.length}` : null,
        opened_at: opened,
        due_at: new Date(opened.getTime() + 240 * 60_000),
        hold_until: new Date(opened.getTime() + 720 * 3_600_000),
        decided_at: state === 'decided' ? new Date(opened.getTime() + 30 * 60_000) : null,
        closed_at: state === 'decided' ? new Date(opened.getTime() + 30 * 60_000) : null,
      };
    });
    await database.db('docverify.review_cases').insert(rows);
  }
  await database.db.raw('ANALYZE docverify.review_cases');
}

/** The userinfo of the operators' issuer, for one token: an admin of every community. */
async function standInIssuer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        sub: 'bench-operator',
        preferred_username: 'testy-admin',
        roles: ['admin'],
        communities: [],
      }),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/userinfo` };
}

interface Latencies {
  p50: number;
  p95: number;
  opsPerSecond: number;
}

async function measureLatency(get: () => Promise<void>): Promise<Latencies> {
  for (let i = 0; i < 20; i++) await get();
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t0 = process.hrtime.bigint();
        await get();
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  return { p50: at(0.5), p95: at(0.95), opsPerSecond: latencies.length / seconds };
}

export async function reviewBenchmarks(): Promise<Comparison[]> {
  const database = await createTestDatabase([platformMigrations, docverifyMigrations]);
  const seeded = await seed(database);
  const other = await seed(database);
  await insertCases(database, seeded.community.tenantId, seeded.community.id);
  await insertCases(database, other.community.tenantId, other.community.id);
  const issuer = await standInIssuer();
  const port = await freePort();
  const prefix = `bench.${randomBytes(4).toString('hex')}`;
  const gateway = startChild('gateway', 'services/docverify-gateway/src/main.ts', {
    DATABASE_URL: database.url,
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    DOCVERIFY_PORT: String(port),
    DOCVERIFY_RUNS_QUEUE: `${prefix}.runs`,
    CONNECTOR_QUEUE_PREFIX: prefix,
    DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
    OPERATORS_USERINFO_URL: issuer.url,
    ...UNLIMITED_RATES,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(gateway, `${base}/healthz?ready=1`, () => true);
    const cases = `${base}/review/community/${seeded.community.id}/cases`;
    const ask = async (url: string): Promise<{ next?: string | null }> => {
      const res = await fetch(url, { headers: { authorization: 'Bearer bench-token' } });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { next?: string | null };
    };
    // the cursor of the 40th page, walked once
    let cursor: string | undefined;
    for (let page = 0; page < 40; page++) {
      const answer = await ask(`${cases}?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      cursor = answer.next ?? undefined;
    }
    const queries: [string, string][] = [
      ['first page', `${cases}?limit=50`],
      ['state=open', `${cases}?state=open&limit=50`],
      ['assignee', `${cases}?assignee=${ASSIGNEES[1]}&limit=50`],
      ['overdue', `${cases}?overdue=true&limit=50`],
      ['40 pages deep', `${cases}?limit=50&cursor=${cursor ?? ''}`],
    ];
    const baseline = await measureLatency(async () => {
      const res = await fetch(`${base}/healthz`);
      await res.arrayBuffer();
    });
    const results: Comparison[] = [];
    for (const [name, url] of queries) {
      const measured = await measureLatency(async () => void (await ask(url)));
      const met = measured.p95 <= GOAL_P95_MS ? 'met' : 'NOT met';
      results.push({
        suite: `review queue, ${CASES.toLocaleString('en')} cases: ${name}`,
        baseline: {
          name: `/healthz (p95 ${baseline.p95.toFixed(1)} ms)`,
          opsPerSecond: baseline.opsPerSecond,
        },
        candidate: { name: `cases, ${CONCURRENCY} callers`, opsPerSecond: measured.opsPerSecond },
        note: `p50 ${measured.p50.toFixed(1)} ms, p95 ${measured.p95.toFixed(1)} ms (goal p95 ≤ ${GOAL_P95_MS} ms: ${met}); pages of 50 with another community's ${CASES.toLocaleString('en')} beside them`,
      });
    }
    return results;
  } finally {
    await stopChild(gateway);
    issuer.server.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await reviewBenchmarks()) console.log(`${row.suite}: ${row.note}`);
}
