// The Kubernetes objects of the platform, typed by kubernetes-models so a misspelt field fails
// tsc; render.ts writes them to base/ and overlays/dev/ as the YAML kustomize reads.
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import type { IVolumeMount } from 'kubernetes-models/v1/VolumeMount';
import { Service } from 'kubernetes-models/v1/Service';
import type { QueueWorker } from '../workers.ts';

export const IMAGE = 'idv-platform';
/** ConfigMap of the settings every process shares; Secret of the ones that must stay secret */
export const CONFIG = 'idv-config';
export const SECRETS = 'idv-secrets';
const METRICS_PORT = 9100;

export interface HttpService {
  name: string;
  entry: string;
  portVariable: string;
  port: number;
  replicas: number;
}

export const HTTP_SERVICES: HttpService[] = [
  {
    name: 'oauth',
    entry: 'services/oauth/src/main.ts',
    portVariable: 'OAUTH_PORT',
    port: 8080,
    replicas: 2,
  },
  {
    name: 'docverify-gateway',
    entry: 'services/docverify-gateway/src/main.ts',
    portVariable: 'DOCVERIFY_PORT',
    port: 8081,
    replicas: 2,
  },
  {
    name: 'webhooks-gateway',
    entry: 'services/webhooks-gateway/src/main.ts',
    portVariable: 'WEBHOOKS_PORT',
    port: 8082,
    replicas: 2,
  },
  {
    name: 'webhook-dispatcher',
    entry: 'services/webhook-dispatcher/src/main.ts',
    portVariable: 'WEBHOOK_DISPATCHER_PORT',
    port: 8083,
    replicas: 2,
  },
  {
    // its sessions are rows and its login state a sealed cookie: any replica serves any operator
    name: 'console',
    entry: 'services/console/src/main.ts',
    portVariable: 'CONSOLE_PORT',
    port: 8084,
    replicas: 2,
  },
];

/** Queued jobs per replica before KEDA adds one, unless the type's deployment says otherwise. */
const BACKLOG_PER_REPLICA = 10;

const labels = (component: string) => ({
  'app.kubernetes.io/name': 'idv',
  'app.kubernetes.io/component': component,
});
const command = (entry: string) => ['node', '--import', 'tsx', entry];
const fromConfig = {
  envFrom: [{ configMapRef: { name: CONFIG } }, { secretRef: { name: SECRETS } }],
};
const scrape = (port: number) => ({
  'prometheus.io/scrape': 'true',
  'prometheus.io/port': String(port),
  'prometheus.io/path': '/metrics',
});
const securityContext = {
  runAsNonRoot: true,
  runAsUser: 1000,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

/** Readiness fails while the database or broker is down (`?ready=1` answers 503 then); liveness only while the process hangs. */
function probes(
  port: number,
): Pick<IContainer, 'readinessProbe' | 'livenessProbe' | 'startupProbe'> {
  return {
    startupProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 2, failureThreshold: 30 },
    readinessProbe: {
      httpGet: { path: '/healthz?ready=1', port },
      periodSeconds: 5,
      timeoutSeconds: 2,
      failureThreshold: 2,
    },
    livenessProbe: {
      httpGet: { path: '/healthz', port },
      periodSeconds: 10,
      timeoutSeconds: 3,
      failureThreshold: 3,
    },
  };
}

/** A volume beside /tmp, e.g. the licence registry's client certificates. */
interface ExtraVolume {
  volume: IVolume;
  mount: IVolumeMount;
}

/**
 * The key-encryption keys added for a rotation (KEY_PROVIDER=local): the optional Secret
 * idv-master-keys, one `<keyId>.key` entry each, at MASTER_KEYS_DIR in every pod; a key added to
 * the Secret appears in running pods without a restart (docs/operating.md, Keys and erasure).
 */
const MASTER_KEYS: ExtraVolume = {
  volume: { name: 'master-keys', secret: { secretName: 'idv-master-keys', optional: true } },
  mount: { name: 'master-keys', mountPath: '/var/lib/idv/master-keys', readOnly: true },
};

function deployment(
  name: string,
  replicas: number,
  container: IContainer,
  port: number,
  extra: ExtraVolume[] = [],
): Deployment {
  return new Deployment({
    metadata: { name, labels: labels(name) },
    spec: {
      replicas,
      selector: { matchLabels: labels(name) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels: labels(name), annotations: scrape(port) },
        spec: {
          // SIGTERM drains in-flight work for SHUTDOWN_TIMEOUT_MS (10 s) before the pod is killed
          terminationGracePeriodSeconds: 30,
          automountServiceAccountToken: false,
          containers: [
            {
              ...container,
              securityContext,
              volumeMounts: [
                { name: 'tmp', mountPath: '/tmp' },
                ...[MASTER_KEYS, ...extra].map((v) => v.mount),
              ],
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: {} }, ...[MASTER_KEYS, ...extra].map((v) => v.volume)],
        },
      },
    },
  });
}

function disruptionBudget(
  name: string,
  budget: { minAvailable?: number; maxUnavailable?: number },
) {
  return new PodDisruptionBudget({
    metadata: { name, labels: labels(name) },
    spec: { ...budget, selector: { matchLabels: labels(name) } },
  });
}

export function httpService(s: HttpService) {
  const container: IContainer = {
    name: s.name,
    image: IMAGE,
    command: command(s.entry),
    ...fromConfig,
    env: [{ name: s.portVariable, value: String(s.port) }],
    ports: [{ name: 'http', containerPort: s.port }],
    resources: { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '512Mi' } },
    ...probes(s.port),
  };
  return [
    deployment(s.name, s.replicas, container, s.port),
    new Service({
      metadata: { name: s.name, labels: labels(s.name) },
      spec: {
        selector: labels(s.name),
        ports: [{ name: 'http', port: s.port, targetPort: 'http' }],
      },
    }),
    disruptionBudget(s.name, { minAvailable: 1 }),
  ];
}

/** Client certificates of licence registry verifiers: keys `<communityId>.<certPath>` of an
 *  optional Secret the operator creates (none: certPath is refused). */
export const CONNECTOR_CERTS = 'idv-connector-certs';
const CERT_DIR = '/etc/idv/connector-certs';
const certificates: ExtraVolume = {
  volume: { name: 'certs', secret: { secretName: CONNECTOR_CERTS, optional: true } },
  mount: { name: 'certs', mountPath: CERT_DIR, readOnly: true },
};

/** The replicas of one queue worker (a connector type, the capture checker), shaped by its
 *  deployment profile, scaled by KEDA on its queue's length. */
export function queueWorker(worker: QueueWorker) {
  const { deployment: profile } = worker;
  const name = worker.process;
  const cpu = profile.compute === 'cpu';
  const mtls = profile.clientCertificates === true;
  const container: IContainer = {
    name: 'worker',
    image: IMAGE,
    command: command(worker.entry),
    ...fromConfig,
    env: [
      ...Object.entries(worker.env).map(([key, value]) => ({ name: key, value })),
      { name: 'WORKER_METRICS_PORT', value: String(METRICS_PORT) },
      ...(mtls ? [{ name: 'CONNECTOR_CERT_DIR', value: CERT_DIR }] : []),
    ],
    ports: [{ name: 'metrics', containerPort: METRICS_PORT }],
    resources: cpu
      ? { requests: { cpu: '500m', memory: '512Mi' }, limits: { memory: '1Gi' } }
      : { requests: { cpu: '100m', memory: '160Mi' }, limits: { memory: '384Mi' } },
    ...probes(METRICS_PORT),
  };
  return [
    deployment(name, 1, container, METRICS_PORT, mtls ? [certificates] : []),
    disruptionBudget(name, { maxUnavailable: 1 }),
    new ScaledObject({
      metadata: { name, labels: labels(name) },
      spec: {
        scaleTargetRef: { name },
        minReplicaCount: 1,
        maxReplicaCount: cpu ? 6 : 10,
        pollingInterval: 10,
        cooldownPeriod: 120,
        triggers: [
          {
            type: 'rabbitmq',
            metadata: {
              protocol: 'amqp',
              queueName: worker.queue,
              mode: 'QueueLength',
              value: String(profile.backlogPerReplica ?? BACKLOG_PER_REPLICA),
            },
            authenticationRef: { name: 'idv-rabbitmq' },
          },
        ],
      },
    }),
  ];
}

export function baseObjects(workers: readonly QueueWorker[]) {
  return {
    'migrate.yaml': [
      new Job({
        metadata: { name: 'idv-migrate', labels: labels('migrate') },
        spec: {
          backoffLimit: 6,
          ttlSecondsAfterFinished: 3600,
          template: {
            metadata: { labels: labels('migrate') },
            spec: {
              restartPolicy: 'OnFailure',
              automountServiceAccountToken: false,
              containers: [
                {
                  name: 'migrate',
                  image: IMAGE,
                  command: command('services/admin-cli/src/migrate.ts'),
                  ...fromConfig,
                  securityContext,
                  resources: {
                    requests: { cpu: '100m', memory: '128Mi' },
                    limits: { memory: '256Mi' },
                  },
                  volumeMounts: [MASTER_KEYS.mount],
                },
              ],
              volumes: [MASTER_KEYS.volume],
            },
          },
        },
      }),
    ],
    'keda-auth.yaml': [
      new TriggerAuthentication({
        metadata: { name: 'idv-rabbitmq', labels: labels('keda') },
        spec: { secretTargetRef: [{ parameter: 'host', name: SECRETS, key: 'AMQP_URL' }] },
      }),
    ],
    ...Object.fromEntries(HTTP_SERVICES.map((s) => [`${s.name}.yaml`, httpService(s)])),
    ...Object.fromEntries(workers.map((w) => [w.manifest, queueWorker(w)])),
  };
}

/** The dev overlay adds the provider sandbox; production talks to the real providers. */
export function devObjects() {
  const sandbox: HttpService = {
    name: 'provider-sandbox',
    entry: 'services/provider-sandbox/src/main.ts',
    portVariable: 'SANDBOX_PORT',
    port: 8090,
    replicas: 1,
  };
  const [deploy, service] = httpService(sandbox) as [Deployment, Service, PodDisruptionBudget];
  const container = deploy.spec!.template.spec!.containers[0]!;
  container.env = [...(container.env ?? []), { name: 'SANDBOX_HOST', value: '0.0.0.0' }];
  // the sandbox serves /healthz without checks: plain path for every probe
  container.readinessProbe = { httpGet: { path: '/healthz', port: 8090 }, periodSeconds: 5 };
  return { 'provider-sandbox.yaml': [deploy, service] };
}
