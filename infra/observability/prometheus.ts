// The compose scrape targets of prometheus.yml: one DNS name per queue worker (infra/workers.ts).
import { withGeneratedBlock } from '../generatedBlock.ts';
import type { QueueWorker } from '../workers.ts';

export const PROMETHEUS_FILE = 'infra/observability/prometheus.yml';

export function withWorkerTargets(text: string, workers: readonly QueueWorker[]): string {
  const names = workers.map((w) => `          - ${w.name}`);
  return withGeneratedBlock(text, PROMETHEUS_FILE, 'queue workers', names);
}
