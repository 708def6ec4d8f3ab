// POST /verify (face_compare through a worker and the sandbox) at concurrency 1 and 32, against an
// Express JSON echo on the same machine in the same run, and against its bare shape (the same
// processes and hops with none of the work, bench/barePipeline.ts), and against that shape with
// the writes the guarantees need (a replay insert, one durable commit of result and event). One
// face_compare_b worker and the provider sandbox run as their own processes, started the way
// `make run` starts them (node --import tsx <entry>), so each has its own event loop as in a
// deployment; this process holds only the load generator and the echo. Echo, bare pipeline and
// /verify alternate for a few rounds and the round of median ratio is reported, with the CPU per
// /verify of each child, PostgreSQL, RabbitMQ and the load generator (read from /proc), which
// varies far less than throughput on a shared machine. DOCVERIFY_BENCH_PROFILE=<dir> writes a CPU
// profile of each child there.
import { randomBytes } from 'node:crypto';
import express from 'express';
import { request } from 'undici';
import { IdvClient } from '@idv/client';
import { createTestDatabase, testAmqpUrl } from '@idv/testing/testServers';
import { startHttpServer } from '@idv/http';
import { platformMigrations } from '@idv/platform';
import { docverifyMigrations } from '../services/docverify-gateway/src/migrations.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import {
  latencyNote,
  load,
  medianRound,
  spreadOf,
  type Comparison,
  type LoadMeasurement,
  UNLIMITED_RATES,
} from './harness.ts';
import {
  cpuMs,
  freePort,
  ownCpuMs,
  seed,
  serversCpuMs,
  sinkEvents,
  startChild,
  stopChild,
  waitHealthy,
  type Child,
} from './processes.ts';

const face = Buffer.from('FACE:testy').toString('base64');
/** echo and /verify alternate this many times: the machine is shared, one pair proves little */
const ROUNDS = 5;
const ROUND_MS = 2000;

async function startEcho() {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/echo', (req, res) => res.json(req.body));
  return startHttpServer(app, 0, '127.0.0.1');
}

interface Round {
  baseline: LoadMeasurement;
  candidate: LoadMeasurement;
  /** the same shape (gateway, broker RPC, worker, provider call) with none of the work */
  bare: LoadMeasurement;
  /** the bare shape plus its PostgreSQL writes: replay insert, durable commit of result and event */
  durable: LoadMeasurement;
  /** CPU ms per /verify of each child, the shared servers and the load generator, when readable */
  cpu: string[];
  /** the same per call of the bare shape with the writes, of its processes */
  durableCpu: string[];
}

/**
 * `measure` with the CPU of `children`, the shared servers and this process read around it: CPU ms
 * per counted operation of each.
 */
async function withCpu<M>(
  children: readonly Child[],
  measure: (count: () => void) => Promise<M>,
): Promise<{ measured: M; cpu: string[] }> {
  let ops = 0;
  const before = children.map((child) => cpuMs(child.process.pid));
  const [serversBefore, ownBefore] = [serversCpuMs(), ownCpuMs()];
  const measured = await measure(() => (ops += 1));
  const perOp = (ms: number) => (ms / ops).toFixed(1);
  const serversAfter = serversCpuMs();
  const cpu = children.flatMap((child, j) => {
    const [start, end] = [before[j], cpuMs(child.process.pid)];
    if (start === undefined || end === undefined) return [];
    return [`${child.name} ${perOp(end - start)}`];
  });
  for (const [server, end] of Object.entries(serversAfter))
    cpu.push(`${server} ${perOp(end - (serversBefore[server] ?? 0))}`);
  cpu.push(`load generator ${perOp(ownCpuMs() - ownBefore)}`);
  return { measured, cpu };
}

/** ROUNDS of echo, bare pipeline and /verify; the round of median ratio, its figures together. */
async function alternate(
  concurrency: number,
  ops: {
    echoOnce: () => Promise<void>;
    bareOnce: () => Promise<void>;
    durableOnce: () => Promise<void>;
    verify: () => Promise<void>;
  },
  children: { verify: readonly Child[]; bare: readonly Child[] },
): Promise<{ median: Round; ratios: number[]; rounds: Round[] }> {
  const { echoOnce, bareOnce, durableOnce, verify } = ops;
  const counted = (name: string, op: () => Promise<void>) => (count: () => void) =>
    load(name, async () => (await op(), count()), concurrency, ROUND_MS);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const baseline = await load(`echo c${concurrency}`, echoOnce, concurrency, ROUND_MS);
    const bare = await load(`bare pipeline c${concurrency}`, bareOnce, concurrency, ROUND_MS);
    const durable = await withCpu(
      children.bare,
      counted(`bare pipeline + writes c${concurrency}`, durableOnce),
    );
    const candidate = await withCpu(
      children.verify,
      counted(`/verify face_compare c${concurrency}`, verify),
    );
    rounds.push({
      baseline,
      candidate: candidate.measured,
      bare,
      durable: durable.measured,
      cpu: candidate.cpu,
      durableCpu: durable.cpu,
    });
  }
  return { ...medianRound(rounds), rounds };
}

/**
 * /verify against the bare shape with the writes, each goal of issue 25 from the round of its own
 * median: throughput ratio at c32, p50 ratio at c1, with the spread of every round's.
 */
function restated(concurrency: number, rounds: Round[]): Comparison {
  const byRate = medianRound(
    rounds.map((round) => ({ round, baseline: round.durable, candidate: round.candidate })),
  );
  const p50s = rounds.map((r) => r.candidate.p50Ms / r.durable.p50Ms).sort((a, b) => a - b);
  const p50 = p50s[p50s.length >> 1]!;
  const { median } =
    concurrency === 1
      ? { median: rounds.find((r) => r.candidate.p50Ms / r.durable.p50Ms === p50)! }
      : { median: byRate.median.round };
  const rate = median.candidate.opsPerSecond / median.durable.opsPerSecond;
  const goal =
    concurrency === 1
      ? `goal at c1: /verify p50 <= 1.5 x its p50; median round ${p50.toFixed(2)} x (rounds ${spreadOf(p50s)}), ${p50 <= 1.5 ? 'met' : 'not met'}`
      : `goal at c32: ratio >= 0.6; median round ${rate.toFixed(2)} (rounds ${spreadOf(byRate.ratios)}), ${rate >= 0.6 ? 'met' : 'not met'}`;
  return {
    suite: `docverify /verify c${concurrency}, against its bare shape with the writes (fast path, restated)`,
    baseline: median.durable,
    candidate: median.candidate,
    note: `the bare pipeline plus the writes the guarantees need, on the bench's PostgreSQL: the request id into a replay table before the call (committed as the replay guard commits, synchronous_commit off) and after the reply one durable commit (synchronous_commit on) of a result row and an event row; bare + writes ${latencyNote(median.durable)}, verify ${latencyNote(median.candidate)}; ${goal}; CPU ms per call of the bare shape with the writes: ${median.durableCpu.join(', ')} (per /verify: ${median.cpu.join(', ')}); the ${ROUNDS} rounds of the rows above`,
  };
}

export async function docverifyBenchmarks(): Promise<Comparison[]> {
  const prefix = `bench.${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase([platformMigrations, docverifyMigrations]);
  const amqpUrl = await testAmqpUrl();
  const seeded = await seed(database);
  const events = await sinkEvents(amqpUrl);
  const [gatewayPort, workerPort, sandboxPort, bareGatewayPort, bareProviderPort, durablePort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const env = {
    DATABASE_URL: database.url,
    AMQP_URL: amqpUrl,
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
    CONNECTOR_QUEUE_PREFIX: prefix,
    // no shared `webhooks.dispatcher` queue collecting the bench's events
    DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
    // rate limits stay on (their cost is measured) but far above the bench's one caller
    ...UNLIMITED_RATES,
  };
  const children = [
    startChild('sandbox', 'services/provider-sandbox/src/main.ts', {
      ...env,
      SANDBOX_PORT: String(sandboxPort),
    }),
    startChild('gateway', 'services/docverify-gateway/src/main.ts', {
      ...env,
      DOCVERIFY_PORT: String(gatewayPort),
      // its own runs queue, apart from a `make run` gateway's
      DOCVERIFY_RUNS_QUEUE: `${prefix}.runs`,
    }),
    startChild('worker', 'services/connector-worker/src/main.ts', {
      ...env,
      CONNECTOR_TYPE: 'face_compare_b',
      WORKER_METRICS_PORT: String(workerPort),
    }),
  ] as const;
  const [sandbox, gateway, worker] = children;
  const bareEnv = {
    AMQP_URL: amqpUrl,
    BARE_QUEUE: `${prefix}.bare`,
    BARE_PROVIDER_URL: `http://127.0.0.1:${bareProviderPort}/compare`,
  };
  const bareRole = (role: string, port?: number, extra: Record<string, string> = {}) =>
    startChild(
      `bare ${role}${extra.BARE_DATABASE_URL ? ' with writes' : ''}`,
      'bench/barePipeline.ts',
      {
        ...bareEnv,
        ...(port ? { BARE_PORT: String(port) } : {}),
        ...extra,
      },
      [role],
    );
  // the two bare gateways share the worker and the provider, as two replicas would
  const bare = [
    bareRole('provider', bareProviderPort),
    bareRole('worker'),
    bareRole('gateway', bareGatewayPort),
    bareRole('gateway', durablePort, { BARE_DATABASE_URL: database.url }),
  ] as const;
  const bareChildren = [bare[3], bare[1], bare[0]];
  const everyChild = [...children, ...bare];
  // a bench that dies half-way takes its children with it
  const orphans = () => everyChild.forEach((child) => child.process.kill('SIGTERM'));
  process.once('exit', orphans);
  const echo = await startEcho();
  try {
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const base = `http://127.0.0.1:${gatewayPort}`;
    await Promise.all([
      waitHealthy(sandbox, `${sandboxUrl}/healthz`, () => true),
      waitHealthy(gateway, `${base}/healthz`, (body) => body.includes('"ok"')),
      waitHealthy(worker, `http://127.0.0.1:${workerPort}/healthz?ready=1`, () => true),
      waitHealthy(bare[0], bareEnv.BARE_PROVIDER_URL, () => true),
      waitHealthy(bare[2], `http://127.0.0.1:${bareGatewayPort}/healthz`, () => true),
      waitHealthy(bare[3], `http://127.0.0.1:${durablePort}/healthz`, () => true),
    ]);
    const admin = new IdvClient({ baseUrl: base, licenseKey: seeded.service });
    const c = seeded.community.id;
    const made = await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'faces',
      tag: 'faces',
      type: 'face_compare_b',
      connectorUrl: sandboxUrl,
      config: { apiKey: 'sandbox-key' },
    });
    const configured = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: seeded.community.tenantId,
      tag: 'bench',
      face_compare: [{ verifier: 'faces' }],
    });
    if (made.status >= 300 || configured.status >= 300)
      throw new Error(`setup answered ${made.status} and ${configured.status}`);
    const caller = new IdvClient({ baseUrl: base, licenseKey: seeded.caller });
    const verifyRequest = {
      dvcID: 'bench',
      verifications: ['face_compare'],
      document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
    };
    const verify = async () => {
      const res = await caller.encryptedRequest<{ status: string }>(
        'POST',
        '/verify',
        verifyRequest,
      );
      if (res.status !== 200 || res.body.status !== 'verified')
        throw new Error(`verify answered ${res.status}`);
    };
    // the echo and the bare pipeline are called with the SDK's own HTTP client (undici's request)
    const body = JSON.stringify({ data: await caller.encryptJson(verifyRequest) });
    const post = (url: string) =>
      request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const echoOnce = async () => {
      await (await post(`${echo.url}/echo`)).body.text();
    };
    const bareAt = (port: number) => async () => {
      const res = await post(`http://127.0.0.1:${port}/verify`);
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`bare pipeline answered ${res.statusCode}`);
    };
    const [bareOnce, durableOnce] = [bareAt(bareGatewayPort), bareAt(durablePort)];
    const comparisons: Comparison[] = [];
    for (const concurrency of [1, 32]) {
      const ops = { echoOnce, bareOnce, durableOnce, verify };
      const { median, ratios, rounds } = await alternate(concurrency, ops, {
        verify: [gateway, worker, sandbox],
        bare: bareChildren,
      });
      const spread = spreadOf(ratios);
      const cpu = median.cpu.length > 0 ? `; CPU ms per /verify: ${median.cpu.join(', ')}` : '';
      comparisons.push({
        suite: `docverify /verify c${concurrency}`,
        baseline: median.baseline,
        candidate: median.candidate,
        note: `verify ${latencyNote(median.candidate)}; echo ${latencyNote(median.baseline)}; median of ${ROUNDS} alternating rounds (ratios ${spread})${cpu}; gateway, face_compare_b worker and sandbox each in its own process as make run starts them, echo and load generator in this one (goal at c32: ratio >= 0.5)`,
      });
      comparisons.push({
        suite: `docverify /verify c${concurrency}, against its bare shape`,
        baseline: median.bare,
        candidate: median.candidate,
        note: `the bare pipeline (bench/barePipeline.ts) is Express, a RabbitMQ request-reply to a worker process and its HTTP call to a provider process, with no credentials, crypto, validation, database or events: the floor of the design's hops on this machine; bare ${latencyNote(median.bare)}; same rounds as the row above`,
      });
      comparisons.push(restated(concurrency, rounds));
    }
    return comparisons;
  } finally {
    await echo.stop();
    await Promise.all(everyChild.map(stopChild));
    process.off('exit', orphans);
    await events.close();
    await database.drop();
    await deleteQueues(amqpUrl, [`${prefix}.face_compare_b`, bareEnv.BARE_QUEUE, `${prefix}.runs`]);
  }
}
