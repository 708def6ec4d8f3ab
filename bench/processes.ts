// The processes a benchmark runs the way `make run` does (each service its own node process), a
// seeded test database, and what the machine's /proc says about their CPU and memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'amqplib';
import type { TestDatabase } from '@idv/testing/testServers';
import { devCommand } from '../infra/dev/processes.ts';
import { LicenceStore, TenantStore } from '@idv/platform';
export { freePort } from '@idv/testing/freePort';

const root = new URL('../', import.meta.url);

export interface Child {
  name: string;
  process: ChildProcess;
  output: string[];
}

export function startChild(
  name: string,
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
  /** as make run starts it: a CPU-bound worker under nice (infra/dev/processes.ts) */
  nice?: number,
): Child {
  const profile = process.env.DOCVERIFY_BENCH_PROFILE;
  const profiling = profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
  const [command, commandArgs] = devCommand({ name, entry, ...(nice ? { nice } : {}) }, profiling);
  // logs at the deployed level (info) are written and dropped; stderr is kept for failures
  const child = spawn(command, [...commandArgs, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  });
  return { name, process: child, output };
}

export async function waitHealthy(child: Child, url: string, ready: (body: string) => boolean) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.process.exitCode === null) {
    try {
      const res = await fetch(url);
      if (res.status === 200 && ready(await res.text())) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${child.name} did not become healthy: ${child.output.join('').slice(-2000)}`);
}

export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** CPU ms a process has used (Linux /proc, 100 ticks a second); undefined where unreadable. */
export function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The processes `pid` started that run now (a capture checker's heavy lane), by /proc. */
export function childPids(pid: number | undefined): number[] {
  try {
    const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return listed ? listed.split(' ').map(Number) : [];
  } catch {
    return [];
  }
}

/** The shared servers a /verify also costs: every PostgreSQL process and RabbitMQ's VM. */
export const SERVERS = { postgres: 'postgres', rabbitmq: 'beam.smp' } as const;

/** CPU ms of the shared servers' processes by server, read from /proc; {} where unreadable. */
export function serversCpuMs(): Record<string, number> {
  const totals: Record<string, number> = {};
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return totals;
  }
  for (const pid of pids) {
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // ended meanwhile
    }
    const server = Object.entries(SERVERS).find(([, name]) => name === comm)?.[0];
    const used = server ? cpuMs(Number(pid)) : undefined;
    if (server && used !== undefined) totals[server] = (totals[server] ?? 0) + used;
  }
  return totals;
}

/** This process's CPU ms: during a /verify round only the load generator runs in it. */
export const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** A test database with one tenant, its community and the two licences the bench uses. */
export async function seed(database: TestDatabase) {
  const tenants = new TenantStore(database.db);
  const tenant = await tenants.createTenant(`bench-${randomBytes(3).toString('hex')}`);
  const community = await tenants.createCommunity(
    tenant.id,
    `bench-${randomBytes(3).toString('hex')}`,
  );
  const licences = new LicenceStore(database.db);
  const service = await licences.create({ level: 'service', communityIds: [community.id] });
  const caller = await licences.create({ level: 'community', communityIds: [community.id] });
  return { community, service: service.licenseKey, caller: caller.licenseKey };
}

/**
 * Events are routed to a bounded queue of the bench's own, as the dispatcher's queue takes them
 * in a deployment; without any binding every publish would come back unroutable.
 */
export async function sinkEvents(amqpUrl: string) {
  const connection = await connect(amqpUrl);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', {
    exclusive: true,
    autoDelete: true,
    arguments: { 'x-max-length': 1000 },
  });
  await channel.assertExchange('events', 'topic', { durable: true });
  await channel.bindQueue(queue, 'events', '#');
  return { close: () => connection.close().catch(() => undefined) };
}

/** Resident memory of a process now and at its peak, in MiB (Linux /proc); undefined elsewhere. */
export function memoryMb(pid: number | undefined): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}
