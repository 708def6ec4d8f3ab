// The whole platform as `make run` starts it, for a benchmark: every process of the dev process
// list (infra/dev/processes.ts, so a service added there is started here too) on free ports, a
// fresh database with every schema, queues of the bench's own, and the peak resident memory of
// each process, of PostgreSQL and of RabbitMQ, sampled from /proc while it runs.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTOR_TYPES } from '@idv/contracts';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { devProcesses } from '../infra/dev/processes.ts';
import { allMigrations } from '../services/admin-cli/src/allMigrations.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import {
  childPids,
  cpuMs,
  freePort,
  memoryMb,
  serversCpuMs,
  SERVERS,
  startChild,
  stopChild,
  waitHealthy,
  type Child,
} from './processes.ts';

export interface RunningPlatform {
  database: TestDatabase;
  env: Record<string, string>;
  /** base URL of each HTTP service by its process name */
  urls: Record<string, string>;
  children: Child[];
  /** the highest resident memory seen of each process and shared server, in MiB */
  peaksMb(): Record<string, number>;
  /** CPU ms used so far by each process and shared server */
  cpuMs(): Record<string, number>;
  stop(): Promise<void>;
}

/** Resident MiB of every process of a shared server now, summed (shared memory counted in each). */
function serverRssMb(): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const server = Object.entries(SERVERS).find(([, name]) => name === comm)?.[0];
      const rss = server ? memoryMb(Number(pid))?.rss : undefined;
      // a process between fork and exec, or exiting, has no VmRSS line
      if (server && Number.isFinite(rss)) totals[server] = (totals[server] ?? 0) + rss!;
    } catch {
      // ended meanwhile
    }
  }
  return totals;
}

function capturePageDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-capture-page-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>capture</title>');
  return dir;
}

/** Starts every process of the dev list with `settings` on top; resolves once each is healthy. */
export async function startPlatform(settings: Record<string, string>): Promise<RunningPlatform> {
  const prefix = `bench.${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase(allMigrations);
  const ports = {
    OAUTH_PORT: await freePort(),
    DOCVERIFY_PORT: await freePort(),
    WEBHOOKS_PORT: await freePort(),
    WEBHOOK_DISPATCHER_PORT: await freePort(),
    SANDBOX_PORT: await freePort(),
    CONSOLE_PORT: await freePort(),
  };
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
    CONNECTOR_QUEUE_PREFIX: prefix,
    DOCVERIFY_RUNS_QUEUE: `${prefix}.runs`,
    DOCVERIFY_FOLLOWUPS_QUEUE: `${prefix}.followups`,
    WEBHOOK_EVENTS_QUEUE: `${prefix}.webhooks`,
    // the capture checker's queue, once the checks leave the gateway (issue 25)
    CAPTURE_CHECK_QUEUE: `${prefix}.capture-checks`,
    CAPTURE_PAGE_DIR: capturePageDir(),
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    ...settings,
  };
  const list = devProcesses(env);
  const children = list.map((p) => startChild(p.name, p.entry, { ...env, ...p.env }, [], p.nice));
  const orphans = () => children.forEach((child) => child.process.kill('SIGTERM'));
  process.once('exit', orphans);
  const peaks: Record<string, number> = {};
  // a process a child started (the capture checker's heavy lane) is reported as its own; its CPU
  // is kept once it ended
  const laneCpu: Record<string, number> = {};
  const lanes = () =>
    children.flatMap((child) =>
      childPids(child.process.pid).map((pid) => ({ name: `${child.name} (its child)`, pid })),
    );
  const sample = () => {
    for (const { name, pid } of [
      ...children.map((child) => ({ name: child.name, pid: child.process.pid })),
      ...lanes(),
    ]) {
      const seen = memoryMb(pid);
      if (seen) peaks[name] = Math.max(peaks[name] ?? 0, seen.peak, seen.rss);
    }
    for (const [server, rss] of Object.entries(serverRssMb()))
      peaks[server] = Math.max(peaks[server] ?? 0, rss);
  };
  const sampler = setInterval(sample, 500);
  const stop = async () => {
    clearInterval(sampler);
    await Promise.all(children.map(stopChild));
    process.off('exit', orphans);
    await database.drop();
    const queues = ['runs', 'followups', 'webhooks', 'capture-checks', ...CONNECTOR_TYPES].map(
      (q) => `${prefix}.${q}`,
    );
    await deleteQueues(env.AMQP_URL!, queues);
  };
  try {
    await Promise.all(
      list.map((p, i) =>
        p.healthUrl ? waitHealthy(children[i]!, p.healthUrl, () => true) : undefined,
      ),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const urls = Object.fromEntries(
    list.filter((p) => p.healthUrl).map((p) => [p.name, p.healthUrl!.replace('/healthz', '')]),
  );
  return {
    database,
    env,
    urls,
    children,
    peaksMb: () => (sample(), { ...peaks }),
    cpuMs: () => {
      for (const { name, pid } of lanes()) laneCpu[name] = cpuMs(pid) ?? laneCpu[name] ?? 0;
      return {
        ...Object.fromEntries(children.map((child) => [child.name, cpuMs(child.process.pid) ?? 0])),
        ...laneCpu,
        ...serversCpuMs(),
      };
    },
    stop,
  };
}
