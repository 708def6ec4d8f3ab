// Test backing services: the servers named by DATABASE_URL/AMQP_URL, else containers where a
// Docker engine exists, else the local defaults; each suite gets a fresh database of its own.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { createDatabase, migrate, type Knex, type MigrationSet } from '@idv/db';
import { refuseInUnitRun } from './unitRun.ts';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

interface Servers {
  postgresUrl: string;
  amqpUrl: string;
}

let servers: Promise<Servers> | undefined;

function dockerAvailable(): boolean {
  return process.env.TESTCONTAINERS === '1' || existsSync('/var/run/docker.sock');
}

async function startContainers(): Promise<Servers> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const postgres = await new GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  const rabbit = await new GenericContainer('rabbitmq:4-management-alpine')
    .withExposedPorts(5672)
    .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
    .start();
  return {
    postgresUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    amqpUrl: `amqp://guest:guest@${rabbit.getHost()}:${rabbit.getMappedPort(5672)}`,
  };
}

/** Resolved once per test process. */
export function testServers(): Promise<Servers> {
  servers ??= (async () => {
    refuseInUnitRun('PostgreSQL and RabbitMQ');
    const fromEnv = process.env.DATABASE_URL || process.env.AMQP_URL;
    if (!fromEnv && dockerAvailable()) return startContainers();
    return {
      postgresUrl: process.env.DATABASE_URL ?? LOCAL_POSTGRES,
      amqpUrl: process.env.AMQP_URL ?? LOCAL_AMQP,
    };
  })();
  return servers;
}

export interface TestDatabase {
  url: string;
  db: Knex;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** A database that exists only for this suite, with `sets` migrated; drop() removes it. */
export async function createTestDatabase(sets: MigrationSet[] = []): Promise<TestDatabase> {
  const { postgresUrl } = await testServers();
  const name = `idv_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(postgresUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDatabase(postgresUrl, name);
  const db = createDatabase({ url, poolMax: 5, applicationName: 'idv-test' });
  await migrate(db, sets);
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: withDatabase(postgresUrl, 'postgres') });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export async function testAmqpUrl(): Promise<string> {
  return (await testServers()).amqpUrl;
}
