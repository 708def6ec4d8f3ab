// What every service process builds the same way from platform config: logger, metrics,
// database, broker, platform stores, credential auth, lifecycle and the version stamp.
import { createCredentialAuth, type CredentialAuth } from '@idv/auth';
import { createBroker, type Broker } from '@idv/broker';
import { loadConfig, PlatformConfig, resolveMasterKey } from '@idv/config';
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
  LicenceStore,
  ReplayGuard,
  ServiceKeyStore,
  TenantStore,
  type ServiceName,
} from '@idv/platform';
import type { Static } from '@sinclair/typebox';
import { buildVersion } from './version.ts';

export type PlatformSettings = Static<typeof PlatformConfig>;

export interface ServiceRuntime {
  service: ServiceName;
  config: PlatformSettings;
  logger: Logger;
  registry: Registry;
  db: Knex;
  broker: Broker;
  masterKey: Buffer;
  serviceKeys: ServiceKeyStore;
  licences: LicenceStore;
  tenants: TenantStore;
  replay: ReplayGuard;
  auth: CredentialAuth;
  lifecycle: Lifecycle;
  version: string;
  unavailable: UnavailabilityTest[];
  directory: Record<string, string>;
  checks: Record<string, () => Promise<boolean>>;
}

export interface RuntimeOptions {
  service: ServiceName;
  env?: Record<string, string | undefined>;
  /** where log lines go; stdout when absent */
  logDestination?: NodeJS.WritableStream;
}

export const backingServiceUnavailable: UnavailabilityTest = (err) => {
  if (isDatabaseUnavailable(err)) return 'the database is unavailable; retry shortly';
  const name = (err as { name?: unknown } | undefined)?.name;
  if (name === 'BrokerUnavailableError') return 'the message broker is unavailable; retry shortly';
  return undefined;
};

/** Waits for PostgreSQL (needed to hold the service key); RabbitMQ may come up later. */
export async function createServiceRuntime(options: RuntimeOptions): Promise<ServiceRuntime> {
  const config = loadConfig(PlatformConfig, options.env ?? process.env);
  const logger = createLogger({
    service: options.service,
    level: config.LOG_LEVEL,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const master = resolveMasterKey(config, (line) => logger.warn(line));
  const registry = createMetricsRegistry(options.service);
  const db = createDatabase({
    url: config.DATABASE_URL,
    applicationName: `idv-${options.service}`,
  });
  await waitForDatabase(db, 60_000, () => logger.warn('waiting for PostgreSQL'));

  const serviceKeys = new ServiceKeyStore(db, master.key, options.service, {
    graceSeconds: config.SERVICE_KEY_GRACE_SECONDS,
    replaceUnreadable: master.development,
    warn: (line) => logger.warn(line),
  });
  await serviceKeys.currentKey();
  const licences = new LicenceStore(db);
  const replay = new ReplayGuard(db);
  replay.startSweeping(60_000, (err) => logger.warn({ err }, 'replay log sweep failed'));
  const broker = createBroker({
    url: config.AMQP_URL,
    logger,
    registry,
    // declared by every service, so no event is unroutable before the dispatcher first ran
    keptEventQueues: config.DECLARE_WEBHOOK_EVENTS_QUEUE ? [config.WEBHOOK_EVENTS_QUEUE] : [],
  });
  const lifecycle = new Lifecycle(logger);
  lifecycle.onStop('broker', 10, () => broker.close());
  lifecycle.onStop('database', 20, async () => {
    replay.stopSweeping();
    await db.destroy();
  });

  return {
    service: options.service,
    config,
    logger,
    registry,
    db,
    broker,
    masterKey: master.key,
    serviceKeys,
    licences,
    tenants: new TenantStore(db),
    replay,
    auth: createCredentialAuth({
      serviceKeys,
      licences,
      replay,
      registry,
      allowedTimeSpan: config.ALLOWED_TIME_SPAN,
    }),
    lifecycle,
    version: buildVersion(config.BUILD_VERSION),
    unavailable: [backingServiceUnavailable],
    directory: {
      docuverify: config.SD_DOCUVERIFY_URL,
      oauth2: config.SD_OAUTH2_URL,
      webhooks: config.SD_WEBHOOKS_URL,
      events: config.SD_EVENTS_URL,
      licenses: config.SD_LICENSES_URL,
    },
    checks: {
      database: () => isDatabaseUp(db),
      broker: async () => broker.status() === 'up',
    },
  };
}
