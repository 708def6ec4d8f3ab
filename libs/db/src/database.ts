// knex over PostgreSQL: connection, database bootstrap, and waiting for the server to come up.
import knexModule, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex };

// knex ships CommonJS; under ESM its factory may arrive on `default`.
const knexFactory = ((knexModule as unknown as { default?: typeof knexModule }).default ??
  knexModule) as typeof knexModule;

// bigint counts as a JS number; timestamps stay Date.
pg.types.setTypeParser(20, (value: string) => Number(value));

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
  /** ms to wait for a pooled connection before failing (the HTTP layer turns it into a 503) */
  acquireTimeoutMs?: number;
  applicationName?: string;
  /** where knex's own warnings go (connection errors during an outage); silent when absent */
  warn?: (message: string) => void;
}

export function createDatabase(options: DatabaseOptions): Knex {
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: options.url,
      application_name: options.applicationName ?? 'idv',
      connectionTimeoutMillis: 3000,
      keepAlive: true,
    },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      acquireTimeoutMillis: options.acquireTimeoutMs ?? 5000,
    },
    acquireConnectionTimeout: options.acquireTimeoutMs ?? 5000,
    log: {
      warn: (message: string) => options.warn?.(String(message)),
      error: (message: string) => options.warn?.(String(message)),
      deprecate: () => undefined,
      debug: () => undefined,
    },
  });
}

/** Creates the database named in `url` when it does not exist (first run on a fresh machine). */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: admin.toString(),
    connectionTimeoutMillis: 3000,
  });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}

export async function isDatabaseUp(db: Knex, timeoutMs = 1000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = db
    .raw('SELECT 1')
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Retries until PostgreSQL answers or `timeoutMs` passes; services need it to start. */
export async function waitForDatabase(
  db: Knex,
  timeoutMs: number,
  onRetry?: (err: unknown) => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await db.raw('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      onRetry?.(err);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** True for errors meaning "the database cannot be reached now" (mapped to 503, not 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof knexModule.KnexTimeoutError) return true;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (/^(08|57P)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code))
  ) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
      message,
    )
  );
}
