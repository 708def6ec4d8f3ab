// What every process builds the same way from its config before anything of its own: logger,
// metrics, master key, broker, lifecycle, version stamp and health checks (ProcessRuntime). A
// platform service adds the database, the platform stores and credential auth (ServiceRuntime).
import { createCredentialAuth, RefusalHold, type CredentialAuth } from '@idv/auth';
import { BrokerUnavailableError, createBroker, type Broker, type BrokerOptions } from '@idv/broker';
import { loadConfig, PlatformConfig, resolveMasterKey, type MasterKeySettings } from '@idv/config';
import {
  createDatabase,
  isDatabaseUnavailable,
  isDatabaseUp,
  waitForDatabase,
  type Knex,
} from '@idv/db';
import { Lifecycle, type UnavailabilityTest } from '@idv/http';
import {
  createLogger,
  createMetricsRegistry,
  type Logger,
  type Registry,
} from '@idv/observability';
import {
  createKeyring,
  LicenceStore,
  RateBuckets,
  ReplayGuard,
  ServiceKeyStore,
  TenantStore,
  type Keyring,
  type ServiceName,
} from '@idv/platform';
import type { Static } from '@sinclair/typebox';
import { buildVersion } from './version.ts';

export type PlatformSettings = Static<typeof PlatformConfig>;

/** What any process of the platform has, a worker without a database included. */
export interface ProcessRuntime {
  /** the name in log lines */
  name: string;
  logger: Logger;
  registry: Registry;
  broker: Broker;
  masterKey: Buffer;
  /** true for the generated development key: what it sealed is disposable */
  developmentMasterKey: boolean;
  lifecycle: Lifecycle;
  version: string;
  shutdownTimeoutMs: number;
  /** what /healthz reports; each answers whether its dependency is up */
  checks: Record<string, () => Promise<boolean>>;
}

/** A platform service: the process runtime plus its database, platform stores and auth. */
export interface ServiceRuntime extends ProcessRuntime {
  service: ServiceName;
  config: PlatformSettings;
  db: Knex;
  serviceKeys: ServiceKeyStore;
  /** data keys under the key provider's KEKs (envelope encryption): what is personal is sealed under them */
  keyring: Keyring;
  licences: LicenceStore;
  tenants: TenantStore;
  replay: ReplayGuard;
  rateBuckets: RateBuckets;
  /** how refusals of a limit are held (RATE_LIMIT_REFUSAL_HOLD_MS): the image budgets use it too */
  refusalHold: RefusalHold;
  auth: CredentialAuth;
  unavailable: UnavailabilityTest[];
  directory: Record<string, string>;
}

/** The settings a process runtime reads: every config definition holds these fields. */
export interface ProcessSettings extends MasterKeySettings {
  AMQP_URL: string;
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  BUILD_VERSION?: string | undefined;
}

export interface ProcessRuntimeOptions {
  /** the name in log lines, e.g. connector-face_cloud */
  name: string;
  /** the `service` label of every metric; the name when absent */
  metricsName?: string;
  settings: ProcessSettings;
  /** broker options beyond url, logger and registry */
  broker?: Omit<BrokerOptions, 'url' | 'logger' | 'registry'>;
  /** where log lines go; stdout when absent */
  logDestination?: NodeJS.WritableStream;
}

export interface RuntimeOptions {
  service: ServiceName;
  env?: Record<string, string | undefined>;
  /** where log lines go; stdout when absent */
  logDestination?: NodeJS.WritableStream;
}

export const backingServiceUnavailable: UnavailabilityTest = (err) => {
  if (isDatabaseUnavailable(err)) return 'the database is unavailable; retry shortly';
  if (err instanceof BrokerUnavailableError)
    return 'the message broker is unavailable; retry shortly';
  return undefined;
};

/** Logger, metrics, master key and broker; RabbitMQ may come up later (the broker reconnects). */
export function createProcessRuntime(options: ProcessRuntimeOptions): ProcessRuntime {
  const { settings } = options;
  const logger = createLogger({
    service: options.name,
    level: settings.LOG_LEVEL,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const master = resolveMasterKey(settings, (line) => logger.warn(line));
  const registry = createMetricsRegistry(options.metricsName ?? options.name);
  const broker = createBroker({ ...options.broker, url: settings.AMQP_URL, logger, registry });
  const lifecycle = new Lifecycle(logger);
  lifecycle.onStop('broker', 10, () => broker.close());
  return {
    name: options.name,
    logger,
    registry,
    broker,
    masterKey: master.key,
    developmentMasterKey: master.development,
    lifecycle,
    version: buildVersion(settings.BUILD_VERSION),
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT_MS,
    checks: { broker: async () => broker.status() === 'up' },
  };
}

/** Waits for PostgreSQL (needed to hold the service key); RabbitMQ may come up later. */
export async function createServiceRuntime(options: RuntimeOptions): Promise<ServiceRuntime> {
  const config = loadConfig(PlatformConfig, options.env ?? process.env);
  const core = createProcessRuntime({
    name: options.service,
    settings: config,
    // declared by every service, so no event is unroutable before the dispatcher first ran
    broker: {
      keptEventQueues: config.DECLARE_WEBHOOK_EVENTS_QUEUE ? [config.WEBHOOK_EVENTS_QUEUE] : [],
    },
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  const { logger, lifecycle, registry } = core;
  const db = createDatabase({
    url: config.DATABASE_URL,
    applicationName: `idv-${options.service}`,
  });
  try {
    await waitForDatabase(db, 60_000, () => logger.warn('waiting for PostgreSQL'));
  } catch (err) {
    await lifecycle.stop();
    await db.destroy();
    throw err;
  }

  const keys = await createKeyring(db, core.masterKey, config, {
    adoptInitialKey: core.developmentMasterKey,
    warn: (line) => logger.warn(line),
  }).catch(async (err: unknown) => {
    await lifecycle.stop();
    await db.destroy();
    throw err;
  });
  const { keyring } = keys;
  const serviceKeys = new ServiceKeyStore(db, keyring, options.service, {
    graceSeconds: config.SERVICE_KEY_GRACE_SECONDS,
    replaceUnreadable: core.developmentMasterKey,
    warn: (line) => logger.warn(line),
  });
  await serviceKeys.currentKey();
  const licences = new LicenceStore(db);
  const replay = new ReplayGuard(db);
  replay.startSweeping(60_000, (err) => logger.warn({ err }, 'replay log sweep failed'));
  const refusalHold = new RefusalHold(config.RATE_LIMIT_REFUSAL_HOLD_MS);
  const rateBuckets = new RateBuckets(db, {
    defaults: {
      licence: { rps: config.RATE_LIMIT_LICENCE_RPS, burst: config.RATE_LIMIT_LICENCE_BURST },
      community: { rps: config.RATE_LIMIT_COMMUNITY_RPS, burst: config.RATE_LIMIT_COMMUNITY_BURST },
      tenant: { rps: config.RATE_LIMIT_TENANT_RPS, burst: config.RATE_LIMIT_TENANT_BURST },
      images: { rps: config.RATE_LIMIT_IMAGES_MBPS, burst: config.RATE_LIMIT_IMAGES_BURST },
    },
    syncMs: config.RATE_LIMIT_SYNC_MS,
    onError: (err) => logger.warn({ err }, 'rate limit sync failed; retried with the next one'),
  });
  lifecycle.onStop('key provider', 20, async () => keys.close());
  lifecycle.onStop('database', 20, async () => {
    replay.stopSweeping();
    await rateBuckets
      .stop()
      .catch((err: unknown) => logger.warn({ err }, 'rate limit sync failed'));
    await db.destroy();
  });

  return {
    ...core,
    service: options.service,
    config,
    db,
    serviceKeys,
    keyring,
    licences,
    tenants: new TenantStore(db),
    replay,
    rateBuckets,
    refusalHold,
    auth: createCredentialAuth({
      serviceKeys,
      licences,
      replay,
      rateBuckets,
      refusalHold,
      registry,
      allowedTimeSpan: config.ALLOWED_TIME_SPAN,
    }),
    unavailable: [backingServiceUnavailable],
    directory: {
      docuverify: config.SD_DOCUVERIFY_URL,
      oauth2: config.SD_OAUTH2_URL,
      webhooks: config.SD_WEBHOOKS_URL,
      events: config.SD_EVENTS_URL,
      licenses: config.SD_LICENSES_URL,
    },
    checks: { database: () => isDatabaseUp(db), ...core.checks },
  };
}
