// Settings of a connector worker process: its type, queue, prefetch and the nested timeouts.
import { availableParallelism } from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError, defineConfig, loadConfig, platformConfigFields } from '@idv/config';
import { CONNECTOR_BY_TYPE, CONNECTOR_TYPES, type ConnectorType } from '@idv/contracts';

const ms = (fallback: number, description: string) =>
  Type.Integer({ default: fallback, minimum: 1, maximum: 600_000, description });

export const ConnectorWorkerConfig = defineConfig({
  AMQP_URL: platformConfigFields.AMQP_URL,
  MASTER_KEY: platformConfigFields.MASTER_KEY,
  MASTER_KEY_FILE: platformConfigFields.MASTER_KEY_FILE,
  MASTER_KEYS_DIR: platformConfigFields.MASTER_KEYS_DIR,
  NODE_ENV: platformConfigFields.NODE_ENV,
  LOG_LEVEL: platformConfigFields.LOG_LEVEL,
  CONNECTOR_TYPE: Type.String({ description: 'the one connector type this process serves' }),
  CONNECTOR_QUEUE_PREFIX: Type.String({
    default: 'idv.connector',
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'work queue is <prefix>.<type>; the gateway must use the same prefix',
  }),
  WORKER_PREFETCH: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description:
        'jobs one worker holds at once (waiting for a verifier slot or calling the provider); default 640, basic_ocr two per core',
    }),
  ),
  WORKER_TENANT_SHARE: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 10_000,
    description:
      "jobs of one tenant's communities together one worker holds at once (of its prefetch); over it a job answers busy at once (503 with Retry-After, or the next verifier); 0 = four fifths of its prefetch (basic_ocr: half its cores), at least one",
  }),
  WORKER_COMMUNITY_SHARE: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 10_000,
    description:
      'jobs of one community one worker holds at once (of its prefetch); over it a job answers busy at once; 0 = as WORKER_TENANT_SHARE',
  }),
  WORKER_METRICS_PORT: Type.Integer({
    default: 0,
    minimum: 0,
    maximum: 65535,
    description: 'port of /healthz and /metrics; 0 = no HTTP server',
  }),
  PROVIDER_HTTP_TIMEOUT_MS: ms(
    20_000,
    "one HTTP request to a provider: its connect, the answer's headers and each gap in its body; below BREAKER_TIMEOUT_MS",
  ),
  BREAKER_TIMEOUT_MS: ms(
    25_000,
    "a provider's time for one call with all its requests: beyond it the provider failed (counts against its breaker); a job's own deadline may cut a call sooner without counting",
  ),
  BREAKER_RESET_MS: ms(30_000, 'how long an open breaker fails fast before trying again'),
  BREAKER_ROLLING_MS: ms(10_000, 'window the breaker counts failures in'),
  BREAKER_VOLUME_THRESHOLD: Type.Integer({
    default: 5,
    minimum: 1,
    description: 'calls in the window before the breaker may open',
  }),
  BREAKER_ERROR_PERCENT: Type.Integer({
    default: 50,
    minimum: 1,
    maximum: 100,
    description: 'failure percentage in the window that opens the breaker',
  }),
  CONNECTOR_SSRF_ALLOW: Type.String({
    default: '',
    description:
      'CIDRs providers may be reached at although loopback, private, link-local or metadata (SSRF guard); outside production loopback is allowed too',
  }),
  CONNECTOR_CERT_DIR: Type.String({
    default: '',
    description:
      'directory of the client certificates (PKCS#12) licence registry verifiers may use, each named <communityId>.<certPath>; empty: none',
  }),
  FOLLOW_UP_FIRST_POLL_MS: ms(
    1000,
    'types with follow-ups: first poll of a pending provider answer; the wait doubles after each',
  ),
  FOLLOW_UP_MAX_POLL_MS: ms(
    60_000,
    'longest wait between two polls of a pending answer (the poll of one the provider calls back)',
  ),
  SHUTDOWN_TIMEOUT_MS: platformConfigFields.SHUTDOWN_TIMEOUT_MS,
  BUILD_VERSION: platformConfigFields.BUILD_VERSION,
});
export type ConnectorWorkerSettings = Static<typeof ConnectorWorkerConfig> & {
  CONNECTOR_TYPE: ConnectorType;
};

/**
 * Provider calls are I/O: hundreds wait on the network at once at little cost. 640: a tenant may
 * hold 512 of them (what one worker held for everyone before shares), a fifth is kept for others.
 */
const IO_PREFETCH = 640;

/**
 * Connectors that compute in the worker itself (deployment.compute 'cpu') are bounded by its
 * cores: twice as many jobs as cores (the image threads, one per core, run one each, the next one
 * ready), so that another tenant's job is taken beside a tenant's backlog (held to its share)
 * instead of waiting behind it in the queue.
 */
export function prefetchOf(settings: ConnectorWorkerSettings): number {
  if (settings.WORKER_PREFETCH !== undefined) return settings.WORKER_PREFETCH;
  const cpu = CONNECTOR_BY_TYPE[settings.CONNECTOR_TYPE].deployment.compute === 'cpu';
  return cpu ? 2 * availableParallelism() : IO_PREFETCH;
}

/**
 * The shares of one tenant and one community in a worker's jobs. A type that waits on providers:
 * its prefetch but a fifth kept for the other tenants, so one tenant's jobs on a provider that
 * hangs leave the others room, while a tenant alone still has most of the worker (a share of
 * half cost one tenant's 500 callers of a 5 s provider half their throughput, and hid the demand
 * from the autoscaler). A type that computes: half its cores (its image threads, at least one),
 * so a tenant's heavy images never run on every core while another tenant's job waits for one.
 */
export function sharesOf(settings: ConnectorWorkerSettings): {
  perTenant: number;
  perCommunity: number;
} {
  const prefetch = prefetchOf(settings);
  const cpu = CONNECTOR_BY_TYPE[settings.CONNECTOR_TYPE].deployment.compute === 'cpu';
  const fallback = cpu
    ? Math.max(1, Math.floor(Math.min(prefetch, availableParallelism()) / 2))
    : Math.max(1, prefetch - Math.ceil(prefetch / 5));
  const share = (configured: number) => Math.min(prefetch, configured || fallback);
  return {
    perTenant: share(settings.WORKER_TENANT_SHARE),
    perCommunity: share(settings.WORKER_COMMUNITY_SHARE),
  };
}

function isConnectorType(value: string): value is ConnectorType {
  return (CONNECTOR_TYPES as readonly string[]).includes(value);
}

/** Throws one ConfigError line for an unknown type or timeouts that do not nest. */
export function loadWorkerConfig(env: Record<string, string | undefined>): ConnectorWorkerSettings {
  const type = env.CONNECTOR_TYPE ?? '';
  if (!isConnectorType(type)) {
    throw new ConfigError(
      `invalid configuration: CONNECTOR_TYPE '${type}' is not one of ${CONNECTOR_TYPES.join(', ')}`,
    );
  }
  const settings = loadConfig(ConnectorWorkerConfig, env);
  if (settings.PROVIDER_HTTP_TIMEOUT_MS >= settings.BREAKER_TIMEOUT_MS) {
    throw new ConfigError(
      'invalid configuration: PROVIDER_HTTP_TIMEOUT_MS must be below BREAKER_TIMEOUT_MS',
    );
  }
  return { ...settings, CONNECTOR_TYPE: type };
}
