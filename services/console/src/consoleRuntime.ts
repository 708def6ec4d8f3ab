// What the console builds before its routes, the way the platform's services do but without what
// it does not use (no broker, no service key, no licences): logger, metrics, lifecycle, master key,
// the database and the platform's keyring its sessions' tokens are sealed under.
import { loadConfig, PlatformConfig, resolveMasterKey } from '@idv/config';
import { createDatabase, isDatabaseUp, waitForDatabase, type Knex } from '@idv/db';
import { Lifecycle } from '@idv/http';
import {
  createLogger,
  createMetricsRegistry,
  type Logger,
  type Registry,
} from '@idv/observability';
import { createKeyring, type Keyring } from '@idv/platform';
import {
  backingServiceUnavailable,
  buildVersion,
  type PlatformSettings,
} from '@idv/service-runtime';

export interface ConsoleRuntime {
  platform: PlatformSettings;
  logger: Logger;
  registry: Registry;
  lifecycle: Lifecycle;
  masterKey: Buffer;
  db: Knex;
  keyring: Keyring;
  version: string;
  checks: Record<string, () => Promise<boolean>>;
  unavailable: (typeof backingServiceUnavailable)[];
}

export async function createConsoleRuntime(
  env: Record<string, string | undefined>,
  logDestination?: NodeJS.WritableStream,
): Promise<ConsoleRuntime> {
  const platform = loadConfig(PlatformConfig, env);
  const logger = createLogger({
    service: 'console',
    level: platform.LOG_LEVEL,
    ...(logDestination ? { destination: logDestination } : {}),
  });
  const master = resolveMasterKey(platform, (line) => logger.warn(line));
  const lifecycle = new Lifecycle(logger);
  const db = createDatabase({ url: platform.DATABASE_URL, applicationName: 'idv-console' });
  lifecycle.onStop('database', 20, () => db.destroy());
  try {
    await waitForDatabase(db, 60_000, () => logger.warn('waiting for PostgreSQL'));
    const keys = await createKeyring(db, master.key, platform, {
      adoptInitialKey: master.development,
      warn: (line) => logger.warn(line),
    });
    lifecycle.onStop('key provider', 20, async () => keys.close());
    return {
      platform,
      logger,
      registry: createMetricsRegistry('console'),
      lifecycle,
      masterKey: master.key,
      db,
      keyring: keys.keyring,
      version: buildVersion(platform.BUILD_VERSION),
      checks: { database: () => isDatabaseUp(db) },
      unavailable: [backingServiceUnavailable],
    };
  } catch (err) {
    await lifecycle.stop();
    throw err;
  }
}
