// The queue workers of docker-compose.yml: one service per worker of the list (infra/workers.ts: a
// connector type, or the capture checker), no host port, so `docker compose up --scale <name>=N`
// scales that worker alone. The rest, their settings' anchors included, is written by hand.
import { withGeneratedBlock } from './generatedBlock.ts';
import { cpuBound, CPU_BOUND_SHARES, type QueueWorker } from './workers.ts';

export const COMPOSE_FILE = 'docker-compose.yml';

export function withWorkerServices(text: string, workers: readonly QueueWorker[]): string {
  const services = workers.flatMap((w, i) => [
    ...(i > 0 ? [''] : []),
    `  ${w.name}:`,
    '    <<: *queue-worker',
    `    command: ['node', '--import', 'tsx', '${w.entry}']`,
    ...(cpuBound(w) ? [`    cpu_shares: ${CPU_BOUND_SHARES}`] : []),
    '    environment:',
    `      <<: *${w.composeEnv}`,
    ...Object.entries(w.env).map(([name, value]) => `      ${name}: ${value}`),
  ]);
  return withGeneratedBlock(text, COMPOSE_FILE, 'queue workers', services);
}
