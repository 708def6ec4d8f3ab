// The one list of queue workers: every process that consumes a work queue and scales on its length
// alone. One connector worker per type of contracts/connectors/types/index.ts, and the capture-check
// worker (services/capture-checker). Compose services, Prometheus targets, Kubernetes Deployments
// with their KEDA ScaledObjects, the broker's queues and `make run`'s processes are all rendered
// from it (infra/render.ts, infra/dev/processes.ts): a worker added here is deployed everywhere.
import {
  CAPTURE_CHECK_QUEUE,
  CONNECTORS,
  connectorQueue,
  type ConnectorDeployment,
  type ConnectorOf,
  type ConnectorType,
} from '@idv/contracts';

export interface QueueWorker {
  /** compose service and Prometheus DNS name: lower case and `_` */
  name: string;
  /** Kubernetes Deployment, ScaledObject and `make run` process name */
  process: string;
  /** the manifest's file under infra/k8s/base */
  manifest: string;
  entry: string;
  /** what tells one worker of the entry from another (CONNECTOR_TYPE) */
  env: Record<string, string>;
  /** the docker-compose.yml anchor of its settings (hand-written there) */
  composeEnv: 'connector-env' | 'capture-checker-env';
  /** the work queue KEDA scales it on */
  queue: string;
  deployment: ConnectorDeployment;
}

export function connectorWorker(contract: ConnectorOf<ConnectorType>): QueueWorker {
  const { type } = contract;
  return {
    name: type,
    process: `connector-${type.replaceAll('_', '-')}`,
    manifest: `connectors/${type}.yaml`,
    entry: 'services/connector-worker/src/main.ts',
    env: { CONNECTOR_TYPE: type },
    composeEnv: 'connector-env',
    queue: connectorQueue(type),
    deployment: contract.deployment,
  };
}

/** Decodes and checks captured images in its threads: CPU bound, a check lasts about a second. */
export const CAPTURE_CHECKER: QueueWorker = {
  name: 'capture_checker',
  process: 'capture-checker',
  manifest: 'capture-checker.yaml',
  entry: 'services/capture-checker/src/main.ts',
  env: {},
  composeEnv: 'capture-checker-env',
  queue: CAPTURE_CHECK_QUEUE,
  deployment: { compute: 'cpu', backlogPerReplica: 4 },
};

/**
 * On a host shared with the request path (`make run`, docker compose), a CPU-bound worker runs at
 * this lower priority: its image threads then take the cores the gateways, the I/O workers and the
 * servers leave, rather than making every hop of a /verify wait for a core (each of several hops
 * waking behind a busy image thread added tens of ms, measured in the noisy-neighbour bench). In
 * Kubernetes each worker has its own pods and CPU requests instead.
 */
export const CPU_BOUND_NICE = 10;
/** compose's relative CPU weight of the same (the default is 1024) */
export const CPU_BOUND_SHARES = 256;

export const cpuBound = (worker: QueueWorker) => worker.deployment.compute === 'cpu';

export function queueWorkers(
  connectors: readonly ConnectorOf<ConnectorType>[] = CONNECTORS,
): QueueWorker[] {
  return [...connectors.map(connectorWorker), CAPTURE_CHECKER];
}
