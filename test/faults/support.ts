// What the fault suites share: services as child processes that can be SIGKILLed and restarted,
// load with a deadline per request, and outages of RabbitMQ or PostgreSQL. An outage is a TCP
// proxy cut by default (safe beside other users of the shared servers); with IDV_FAULTS_REAL=1
// (`make test-faults`) the real server is stopped and started again.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { TcpProxy } from '@idv/testing/tcpProxy';
export { freePort } from '@idv/testing/freePort';

const run = promisify(execFile);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const realOutages = process.env.IDV_FAULTS_REAL === '1';
/** How long RabbitMQ or PostgreSQL stays away; the issue asks for 10-30 s. */
export const outageMs = Number(process.env.IDV_FAULTS_OUTAGE_S ?? 10) * 1000;
/** no call of a fault suite may take longer than this */
export const DEADLINE_MS = 15_000;

/** One service's main.ts as its own process, on a fixed port so it comes back where it was. */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  starts = 0;

  constructor(
    private readonly entry: string,
    private readonly env: Record<string, string>,
    readonly healthUrl: string | undefined,
  ) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', this.entry], {
      env: { ...process.env, ...this.env },
      stdio: process.env.IDV_FAULTS_DEBUG ? 'inherit' : 'ignore',
    });
    this.child = child;
    this.starts += 1;
    if (this.healthUrl) await this.waitHealthy();
  }

  async waitHealthy(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(`${this.healthUrl!}?ready=1`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return;
      if (this.child?.exitCode !== null) throw new Error(`${this.entry} exited while starting`);
      if (Date.now() > until) throw new Error(`${this.entry} not ready in ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  /** SIGKILL, as the kernel's OOM killer or a lost node would; resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    await this.kill();
    this.child = undefined;
  }
}

export interface Outcome {
  /** the HTTP status, or 0 when the connection failed */
  status: number;
  ms: number;
  body?: unknown;
  error?: string;
}

/**
 * Runs `op` from `concurrency` loops until `done()` says stop; every call is raced against
 * `deadlineMs` so a hung request is recorded as one (status -1) instead of hanging the test.
 * `outcomes` fills while it runs, so the test can strike at a chosen moment.
 */
export function startLoad(
  concurrency: number,
  op: (i: number) => Promise<{ status: number; body?: unknown }>,
  done: (outcomes: Outcome[]) => boolean,
  deadlineMs: number,
): { outcomes: Outcome[]; finished: Promise<Outcome[]> } {
  const outcomes: Outcome[] = [];
  let next = 0;
  const loop = async () => {
    while (!done(outcomes)) {
      const i = next++;
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<Outcome>((resolve) => {
        timer = setTimeout(
          () => resolve({ status: -1, ms: deadlineMs, error: 'hung' }),
          deadlineMs,
        );
      });
      const attempt = op(i).then(
        (res): Outcome => ({ status: res.status, body: res.body, ms: Date.now() - started }),
        (err: Error & { cause?: { code?: string } }): Outcome => ({
          status: 0,
          ms: Date.now() - started,
          error: err.cause?.code ?? err.message,
        }),
      );
      const outcome = await Promise.race([attempt, hung]);
      clearTimeout(timer);
      outcomes.push(outcome);
      // a refused connection fails at once; do not spin while the process is down
      if (outcome.status === 0) await sleep(20);
    }
  };
  const finished = Promise.all(Array.from({ length: concurrency }, loop)).then(() => outcomes);
  return { outcomes, finished };
}

export async function until(what: string, check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.status === 0 ? `connection ${o.error}` : String(o.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** A server the suite can take away and give back. `url` is what the services connect to. */
export interface Outage {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function proxied(url: string, defaultPort: number): Promise<Outage> {
  const target = new URL(url);
  const proxy = await TcpProxy.start(target.hostname, Number(target.port || defaultPort));
  const through = new URL(url);
  through.host = `127.0.0.1:${proxy.port}`;
  return {
    url: through.toString(),
    stop: async () => proxy.cut(),
    start: async () => proxy.restore(),
    close: async () => {
      proxy.restore();
      await proxy.close();
    },
  };
}

async function requireTool(tool: string): Promise<void> {
  await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
    throw new Error(
      `IDV_FAULTS_REAL=1 stops the local servers with ${tool}, which is not here; run without it to cut them behind a proxy`,
    );
  });
}

/** RabbitMQ: stop_app/start_app keeps the Erlang node up, so it comes back in seconds. */
export async function brokerOutage(amqpUrl: string): Promise<Outage> {
  if (!realOutages) return proxied(amqpUrl, 5672);
  await requireTool('rabbitmqctl');
  let stopped = false;
  const start = async () => {
    if (!stopped) return;
    await run('rabbitmqctl', ['start_app']);
    await run('rabbitmqctl', ['await_startup']);
    stopped = false;
  };
  return {
    url: amqpUrl,
    stop: async () => {
      stopped = true;
      await run('rabbitmqctl', ['stop_app']);
    },
    start,
    close: start,
  };
}

/** PostgreSQL: the local cluster is stopped (fast mode: sessions are cut) and started again. */
export async function databaseOutage(databaseUrl: string): Promise<Outage> {
  if (!realOutages) return proxied(databaseUrl, 5432);
  await requireTool('pg_ctlcluster');
  const { stdout } = await run('pg_lsclusters', ['--no-header']);
  const [version, cluster] = stdout.trim().split(/\s+/);
  const ctl = (action: string) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version!, cluster!, action, '-m', 'fast']);
  let stopped = false;
  const start = async () => {
    if (!stopped) return;
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version!, cluster!, 'start']);
    stopped = false;
  };
  return {
    url: databaseUrl,
    stop: async () => {
      stopped = true;
      await ctl('stop');
    },
    start,
    close: start,
  };
}

export type Phase = 'before' | 'outage' | 'after';

export interface PhasedLoad {
  concurrency: number;
  op: (i: number) => Promise<{ status: number; body?: unknown }>;
  /** the status of a success: 200, or 202 for accepted events */
  ok: number;
}

export interface OutageRun {
  outcomes: Outcome[][];
  phaseOf(outcome: Outcome): Phase | undefined;
  awayMs: number;
}

/**
 * Runs the loads; once the first has `warmup` outcomes the server goes away for `outageMs`, then
 * comes back; they go on until the first succeeded again and then made `afterwards` more calls.
 */
export async function loadThroughOutage(
  outage: Outage,
  loads: PhasedLoad[],
  warmup: number,
  afterwards: number,
): Promise<OutageRun> {
  let phase: Phase = 'before';
  let stopAfter = Number.POSITIVE_INFINITY;
  const phases = new Map<unknown, Phase>();
  const running: ReturnType<typeof startLoad>[] = [];
  for (const [n, load] of loads.entries()) {
    const op = async (i: number) => {
      const started = phase;
      const res = await load.op(i);
      phases.set(res.body, started);
      return res;
    };
    running.push(
      startLoad(
        load.concurrency,
        op,
        () => (running[0]?.outcomes.length ?? 0) >= stopAfter && (n === 0 || phase === 'after'),
        DEADLINE_MS,
      ),
    );
  }
  const first = running[0]!;
  await until('calls before the outage', () => first.outcomes.length >= warmup);
  const stoppedAt = Date.now();
  await outage.stop();
  phase = 'outage';
  await sleep(outageMs);
  const during = first.outcomes.length;
  await outage.start();
  const awayMs = Date.now() - stoppedAt;
  phase = 'after';
  await until(
    'calls served again after the outage',
    () => first.outcomes.slice(during).some((o) => o.status === loads[0]!.ok),
    60_000,
  );
  stopAfter = first.outcomes.length + afterwards;
  const outcomes = await Promise.all(running.map((r) => r.finished));
  return { outcomes, phaseOf: (o) => phases.get(o.body), awayMs };
}

/** No hang; every refusal a 503 with the error body; refused meanwhile and served again after. */
export function expectOutageBehaviour(run: OutageRun, loads: PhasedLoad[]): void {
  for (const [n, outcomes] of run.outcomes.entries()) {
    const { ok } = loads[n]!;
    expect(
      outcomes.filter((o) => o.status === -1),
      'hung requests',
    ).to.have.length(0);
    for (const o of outcomes.filter((x) => x.status !== ok)) {
      expect(o.status, JSON.stringify(o)).to.equal(503);
      expect(o.body).to.include({ statusCode: 503, error: 'Service Unavailable' });
    }
    const count = (phase: Phase, status: number) =>
      outcomes.filter((o) => run.phaseOf(o) === phase && o.status === status).length;
    expect(count('outage', 503), `load ${n} refused during the outage`).to.be.greaterThan(0);
    expect(count('after', ok), `load ${n} served again afterwards`).to.be.greaterThan(0);
  }
}

/** Waits until every id was delivered; returns those that never were and the repeats. */
export async function undelivered(
  ids: string[],
  delivered: () => string[],
  timeoutMs = 60_000,
): Promise<{ missing: string[]; repeats: number }> {
  const complete = () => {
    const seen = new Set(delivered());
    return ids.every((id) => seen.has(id));
  };
  await until('every event delivered', complete, timeoutMs).catch(() => undefined);
  const all = delivered();
  const seen = new Set(all);
  return { missing: ids.filter((id) => !seen.has(id)), repeats: all.length - seen.size };
}
