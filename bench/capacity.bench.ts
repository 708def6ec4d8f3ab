// POST /verify against slow providers, as issue 15 measures it: one worker per connector type,
// the sandbox answering in 1 s or 5 s, many callers at once, counted in the steady state after a
// warm-up (reported beside it). Ideal = callers / provider latency; the ratio says how much of it
// the platform delivers. Then an open-loop overload at three times
// a verifier's capacity: every answer must be 200, or 503 with Retry-After, within the deadline.
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { createTestDatabase, testAmqpUrl } from '@idv/testing/testServers';
import { platformMigrations } from '@idv/platform';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY } from '../services/provider-sandbox/src/fixtures.ts';
import { docverifyMigrations } from '../services/docverify-gateway/src/migrations.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { UNLIMITED_RATES, type Comparison } from './harness.ts';
import {
  freePort,
  memoryMb,
  seed,
  sinkEvents,
  startChild,
  stopChild,
  waitHealthy,
  type Child,
} from './processes.ts';

const face = Buffer.from('FACE:testy').toString('base64');
const DEADLINE_MS = 30_000;

interface Outcomes {
  ok: number;
  shed: number;
  /** 503 without Retry-After, another status, a network error, or an answer after the deadline */
  bad: number;
  latencies: number[];
  seconds: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

function summary(o: Outcomes): string {
  const sorted = [...o.latencies].sort((a, b) => a - b);
  return `${o.ok} answered 200, ${o.shed} 503 with Retry-After, ${o.bad} errors or timeouts; p50 ${pct(sorted, 0.5).toFixed(0)} ms, p99 ${pct(sorted, 0.99).toFixed(0)} ms`;
}

const outcomes = (): Outcomes => ({ ok: 0, shed: 0, bad: 0, latencies: [], seconds: 0 });

/** One /verify, recorded in the outcomes `into` picks by the time its answer came. */
async function once(
  caller: IdvClient,
  dvcID: string,
  into: Outcomes | ((answeredAt: number) => Outcomes),
): Promise<void> {
  const started = Date.now();
  const request = {
    dvcID,
    verifications: ['face_compare'],
    document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
  };
  const res = await caller.encryptedRequest('POST', '/verify', request).catch(() => undefined);
  const ms = Date.now() - started;
  const outcomes = typeof into === 'function' ? into(started + ms) : into;
  outcomes.latencies.push(ms);
  if (ms > DEADLINE_MS + 1000 || !res) outcomes.bad += 1;
  else if (res.status === 200) outcomes.ok += 1;
  else if (res.status === 503 && Number(res.headers.get('retry-after')) >= 1) outcomes.shed += 1;
  else outcomes.bad += 1;
}

/**
 * `callers` each sending /verify back to back, all from the same instant; the answers of the
 * first `warmMs` are not counted, then those of `ms` are. Callers that start together come back
 * together, one provider latency later, and go again together: these waves take several
 * latencies to spread out, and while they last a row would measure the start, not the steady
 * state that independent callers give. What the warm-up saw is reported beside the row, and any
 * error in it or after the count fails the row as well.
 */
async function closedLoop(
  caller: IdvClient,
  dvcID: string,
  callers: number,
  warmMs: number,
  ms: number,
) {
  const [warm, counted, after] = [outcomes(), outcomes(), outcomes()];
  const from = Date.now() + warmMs;
  const until = from + ms;
  const phase = (answeredAt: number) =>
    answeredAt < from ? warm : answeredAt < until ? counted : after;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (Date.now() < until) await once(caller, dvcID, phase);
    }),
  );
  counted.seconds = ms / 1000;
  counted.bad += warm.bad + after.bad;
  return { counted, warm };
}

/** The warm-up's figures, for the note beside a steady-state row. */
function warmUp(warm: Outcomes, warmMs: number): string {
  const sorted = [...warm.latencies].sort((a, b) => a - b);
  return `warm-up (first ${warmMs / 1000} s from a simultaneous start, not counted): ${warm.ok} answered 200, p50 ${pct(sorted, 0.5).toFixed(0)} ms, p99 ${pct(sorted, 0.99).toFixed(0)} ms`;
}

/** `perSecond` new /verify calls every second for `ms`, whatever the answers: an open loop. */
async function openLoop(caller: IdvClient, dvcID: string, perSecond: number, ms: number) {
  const open = outcomes();
  const calls: Promise<void>[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() - started < ms; i += 1) {
    const due = started + (i * 1000) / perSecond;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    calls.push(once(caller, dvcID, open));
  }
  await Promise.all(calls);
  open.seconds = (Date.now() - started) / 1000; // until the last answer, queued ones included
  return open;
}

async function metric(url: string, name: string): Promise<string[]> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(name));
}

export async function capacityBenchmarks(): Promise<Comparison[]> {
  const prefix = `bench.cap.${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase([platformMigrations, docverifyMigrations]);
  const amqpUrl = await testAmqpUrl();
  const seeded = await seed(database);
  const events = await sinkEvents(amqpUrl);
  const ports = {
    gateway: await freePort(),
    sandbox: await freePort(),
    faces: await freePort(),
    cloud: await freePort(),
  };
  const env = {
    DATABASE_URL: database.url,
    AMQP_URL: amqpUrl,
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    CONNECTOR_QUEUE_PREFIX: prefix,
    // rate limits stay on (their cost is measured) but far above the bench's one caller
    ...UNLIMITED_RATES,
  };
  const worker = (type: string, port: number) =>
    startChild(`${type} worker`, 'services/connector-worker/src/main.ts', {
      ...env,
      CONNECTOR_TYPE: type,
      WORKER_METRICS_PORT: String(port),
    });
  const children: Child[] = [
    startChild('sandbox', 'services/provider-sandbox/src/main.ts', {
      ...env,
      SANDBOX_PORT: String(ports.sandbox),
    }),
    startChild('gateway', 'services/docverify-gateway/src/main.ts', {
      ...env,
      DOCVERIFY_PORT: String(ports.gateway),
      VERIFY_DEADLINE_MS: String(DEADLINE_MS),
    }),
    worker('face_compare_b', ports.faces),
    worker('face_cloud', ports.cloud),
  ];
  const [sandbox, gateway, faces, cloud] = children as [Child, Child, Child, Child];
  const orphans = () => children.forEach((child) => child.process.kill('SIGTERM'));
  process.once('exit', orphans);
  try {
    const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
    const base = `http://127.0.0.1:${ports.gateway}`;
    const facesMetrics = `http://127.0.0.1:${ports.faces}`;
    await Promise.all([
      waitHealthy(sandbox, `${sandboxUrl}/healthz`, () => true),
      waitHealthy(gateway, `${base}/healthz`, (body) => body.includes('"ok"')),
      waitHealthy(faces, `${facesMetrics}/healthz?ready=1`, () => true),
      waitHealthy(cloud, `http://127.0.0.1:${ports.cloud}/healthz?ready=1`, () => true),
    ]);
    const admin = new IdvClient({ baseUrl: base, licenseKey: seeded.service });
    const c = seeded.community.id;
    const slow = (ms: number) => `${sandboxUrl}/fault/latency=${ms}`;
    const verifiers = [
      { tag: 'fast', type: 'face_compare_b', url: sandboxUrl, config: { apiKey: 'sandbox-key' } },
      { tag: 'slow1', type: 'face_compare_b', url: slow(1000), config: { apiKey: 'sandbox-key' } },
      {
        tag: 'cloud1',
        type: 'face_cloud',
        url: slow(1000),
        config: { awsAccessKey: CLOUD_ACCESS_KEY, awsSecretKey: CLOUD_SECRET_KEY },
      },
      { tag: 'slow5', type: 'face_compare_b', url: slow(5000), config: { apiKey: 'sandbox-key' } },
      {
        tag: 'capped',
        type: 'face_compare_b',
        url: slow(1000),
        config: { apiKey: 'sandbox-key' },
        limits: { maxConcurrent: 50 },
      },
    ];
    for (const v of verifiers) {
      const made = await admin.request('PUT', `/verifier/community/${c}`, {
        name: v.tag,
        tag: v.tag,
        type: v.type,
        connectorUrl: v.url,
        config: v.config,
        ...(v.limits ? { limits: v.limits } : {}),
      });
      const configured = await admin.request('PUT', `/verificationConfig/community/${c}`, {
        tenantId: seeded.community.tenantId,
        tag: v.tag,
        face_compare: [{ verifier: v.tag }],
      });
      if (made.status >= 300 || configured.status >= 300)
        throw new Error(`setup of ${v.tag} answered ${made.status} and ${configured.status}`);
    }
    const caller = new IdvClient({ baseUrl: base, licenseKey: seeded.caller });
    const ideal = (callers: number, latencyS: number) => ({
      name: `ideal (${callers} callers / ${latencyS} s)`,
      opsPerSecond: callers / latencyS,
    });
    const row = (
      suite: string,
      loop: { counted: Outcomes; warm: Outcomes },
      [callers, latencyS, warmMs]: [number, number, number],
      goal: string,
    ) => ({
      suite,
      baseline: ideal(callers, latencyS),
      candidate: {
        name: '/verify answered 200',
        opsPerSecond: loop.counted.ok / loop.counted.seconds,
      },
      note: `steady state, ${loop.counted.seconds} s counted: ${summary(loop.counted)}; ${warmUp(loop.warm, warmMs)}; ${goal}`,
    });
    const comparisons: Comparison[] = [];

    // every process past its cold start (JIT, pools, sockets) before the first row, as the rows
    // after it are: 200 callers' first calls at once on a cold gateway took up to 2.7 s
    const jit = outcomes();
    const warmUntil = Date.now() + 3000;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() < warmUntil) await once(caller, 'fast', jit);
      }),
    );
    if (jit.bad > 0) throw new Error(`warming up: ${summary(jit)}`);

    const c200 = await closedLoop(caller, 'slow1', 200, 5000, 15_000);
    comparisons.push(
      row(
        '/verify, provider 1 s, 200 callers',
        c200,
        [200, 1, 5000],
        'goal >= 0.9, 0 errors, p99 <= 1.3 s',
      ),
    );
    const cloud200 = await closedLoop(caller, 'cloud1', 200, 5000, 15_000);
    comparisons.push(
      row(
        '/verify face_cloud, provider 1 s, 200 callers',
        cloud200,
        [200, 1, 5000],
        'goal as above',
      ),
    );

    const before = [memoryMb(gateway.process.pid), memoryMb(faces.process.pid)];
    const c500 = await closedLoop(caller, 'slow5', 500, 10_000, 25_000);
    const [gw, wk] = [memoryMb(gateway.process.pid), memoryMb(faces.process.pid)];
    const memory = (name: string, m: { rss: number; peak: number } | undefined, was?: number) =>
      m
        ? `${name} RSS ${m.rss.toFixed(0)} MiB (peak ${m.peak.toFixed(0)}, ${was?.toFixed(0) ?? '?'} before)`
        : '';
    comparisons.push(
      row(
        '/verify, provider 5 s, 500 callers',
        c500,
        [500, 5, 10_000],
        `goal >= 0.9; ${memory('gateway', gw, before[0]?.rss)}, ${memory('worker', wk, before[1]?.rss)}`,
      ),
    );

    const overload = await openLoop(caller, 'capped', 150, 15_000);
    const breaker = await metric(facesMetrics, 'connector_breaker_state');
    const opened = breaker.some((line) => / 2$/.test(line));
    comparisons.push({
      suite: '/verify overload: 150/s offered to a verifier capped at 50 at 1 s',
      baseline: { name: 'capacity (50 in flight / 1 s)', opsPerSecond: 50 },
      candidate: { name: '/verify answered 200', opsPerSecond: overload.ok / overload.seconds },
      note: `open loop, three times capacity for 15 s, answers counted until the last (${overload.seconds.toFixed(0)} s); ${summary(overload)}; breaker ${opened ? 'OPENED' : 'stayed closed'} (goal: every answer 200 or 503 with Retry-After within the ${DEADLINE_MS / 1000} s deadline, 0 errors or timeouts, breaker closed)`,
    });
    return comparisons;
  } finally {
    await Promise.all(children.map(stopChild));
    process.off('exit', orphans);
    await events.close();
    await database.drop();
    await deleteQueues(amqpUrl, [`${prefix}.face_compare_b`, `${prefix}.face_cloud`]);
  }
}
