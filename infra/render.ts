// Every file generated from the code, rendered in one place: the worker table of the connector
// types (contracts/connectors/types/index.ts), the lists per queue worker (infra/workers.ts: each
// connector type and the capture checker; docker-compose services, RabbitMQ queues, Prometheus
// targets, Kubernetes manifests), the Kubernetes objects of infra/k8s/manifests.ts, and the
// tables of settings in docs/configuration.md (infra/dev/configTable.ts) and of session states in
// docs/sessions.md (sessionStatesTable.ts).
//   make generate (npx tsx infra/render.ts --write)   rewrites whatever differs
//   make check (npx tsx infra/render.ts)               lists what differs and fails, as
//                                                      test/infra/generated.unit.test.ts does
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { CONNECTORS, type ConnectorOf, type ConnectorType } from '@idv/contracts';
import { COMPOSE_FILE, withWorkerServices } from './compose.ts';
import { CONFIG_TABLE_FILE, withTable } from './dev/configTable.ts';
import { SESSION_STATES_FILE, withStatesTable } from './dev/sessionStatesTable.ts';
import { KUSTOMIZATION_FILE, renderKubernetes } from './k8s/render.ts';
import { PROMETHEUS_FILE, withWorkerTargets } from './observability/prometheus.ts';
import { rabbitDefinitions } from './rabbitmq/definitions.ts';
import { WORKER_TABLE_FILE, workerTable } from './workerTable.ts';
import { queueWorkers } from './workers.ts';

/** The repository's root: generated paths are relative to it. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Every generated file, by path from the repository's root, formatted as prettier --check wants. */
export async function renderAll(
  connectors: readonly ConnectorOf<ConnectorType>[] = CONNECTORS,
): Promise<Record<string, string>> {
  const workers = queueWorkers(connectors);
  const files: Record<string, string> = {
    [WORKER_TABLE_FILE]: workerTable(connectors),
    [COMPOSE_FILE]: withWorkerServices(read(COMPOSE_FILE), workers),
    'infra/rabbitmq/definitions.json': rabbitDefinitions(connectors),
    [PROMETHEUS_FILE]: withWorkerTargets(read(PROMETHEUS_FILE), workers),
    ...renderKubernetes(workers, read(KUSTOMIZATION_FILE)),
    [CONFIG_TABLE_FILE]: withTable(read(CONFIG_TABLE_FILE)),
    [SESSION_STATES_FILE]: withStatesTable(read(SESSION_STATES_FILE)),
  };
  const formatted = await Promise.all(
    Object.entries(files).map(async ([file, text]) => {
      const options = (await resolveConfig(join(REPO_ROOT, file))) ?? {};
      return [file, await format(text, { ...options, filepath: file })] as const;
    }),
  );
  return Object.fromEntries(formatted);
}

/** The generated files whose committed text differs from what the code renders now. */
export async function staleFiles(): Promise<string[]> {
  const rendered = await renderAll();
  return Object.entries(rendered)
    .filter(([file, text]) => !existsSync(join(REPO_ROOT, file)) || read(file) !== text)
    .map(([file]) => file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write');
  const rendered = await renderAll();
  const stale = await staleFiles();
  for (const file of stale) {
    if (write) {
      mkdirSync(dirname(join(REPO_ROOT, file)), { recursive: true });
      writeFileSync(join(REPO_ROOT, file), rendered[file]!);
    }
    console.log(`${write ? 'wrote' : 'differs'}: ${file}`);
  }
  if (!write && stale.length > 0) {
    console.error('run `make generate` and commit the result');
    process.exit(1);
  }
}
