// Measures operations per second and reports each figure beside a baseline from the same run.
import { cpus } from 'node:os';

/** Rate limits far above a bench's load: they stay on (their cost is measured), never refusing. */
export const UNLIMITED_RATES: Record<string, string> = Object.fromEntries(
  ['LICENCE', 'COMMUNITY', 'TENANT'].flatMap((scope) => [
    [`RATE_LIMIT_${scope}_RPS`, '1000000'],
    [`RATE_LIMIT_${scope}_BURST`, '1000000'],
  ]),
);

export interface Measurement {
  name: string;
  opsPerSecond: number;
}

export interface Comparison {
  suite: string;
  baseline: Measurement;
  candidate: Measurement;
  note: string;
}

/** Runs `op` for about `ms` milliseconds after a short warm-up; returns ops/s. */
export async function measure(name: string, op: () => unknown, ms = 1000): Promise<Measurement> {
  const warmUntil = Date.now() + 100;
  while (Date.now() < warmUntil) await op();
  let count = 0;
  const start = process.hrtime.bigint();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (let i = 0; i < 20; i++) await op();
    count += 20;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { name, opsPerSecond: count / seconds };
}

/**
 * Of rounds that each measured a baseline and a candidate side by side, the round whose ratio is
 * the median, so the figures reported belong together, and every round's ratio, sorted. The
 * shared machine drifts and stalls for seconds at a time: a ratio from one round cancels what
 * both of its measurements shared, which medians of each side taken apart do not.
 */
export function medianRound<R extends { baseline: Measurement; candidate: Measurement }>(
  rounds: R[],
): { median: R; ratios: number[] } {
  const ratio = (r: R) => r.candidate.opsPerSecond / r.baseline.opsPerSecond;
  const ratios = rounds.map(ratio).sort((a, b) => a - b);
  const median = rounds.find((r) => ratio(r) === ratios[ratios.length >> 1]) ?? rounds[0]!;
  return { median, ratios };
}

/** "0.71..0.93": the spread of sorted ratios, for a note. */
export const spreadOf = (ratios: number[]) =>
  `${ratios[0]!.toFixed(2)}..${ratios[ratios.length - 1]!.toFixed(2)}`;

/** Two significant digits below 10, so 0.08 and 0.36 stay apart. */
function ratio(value: number): string {
  return value >= 10 ? `${value.toFixed(0)}x` : `${value.toPrecision(2)}x`;
}

function fmt(ops: number): string {
  return ops >= 1000 ? `${(ops / 1000).toFixed(1)}k` : ops.toFixed(0);
}

export function report(comparisons: Comparison[]): string {
  const rows = comparisons.map(
    (c) =>
      `| ${c.suite} | ${c.baseline.name}: ${fmt(c.baseline.opsPerSecond)} ops/s | ${c.candidate.name}: ${fmt(c.candidate.opsPerSecond)} ops/s | ${ratio(c.candidate.opsPerSecond / c.baseline.opsPerSecond)} | ${c.note} |`,
  );
  return [
    `# Benchmark results`,
    ``,
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}. Each figure is beside a baseline measured in the same run; the ratio is what to compare across machines.`,
    ``,
    `| suite | baseline | measured | ratio | what it shows |`,
    `|---|---|---|---|---|`,
    ...rows,
    ``,
  ].join('\n');
}

export interface LoadMeasurement extends Measurement {
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** `concurrency` callers each running `op` back to back for about `ms`; throughput and latency. */
export async function load(
  name: string,
  op: () => Promise<unknown>,
  concurrency: number,
  ms = 3000,
): Promise<LoadMeasurement> {
  const warmUntil = Date.now() + 300;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < warmUntil) await op();
    }),
  );
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const t0 = process.hrtime.bigint();
        await op();
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    name,
    opsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

export const latencyNote = (m: LoadMeasurement) =>
  `p50 ${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms`;
