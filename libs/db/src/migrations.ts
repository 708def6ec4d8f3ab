// Forward-only knex migrations per schema, run programmatically from TypeScript modules.
import type { Knex } from 'knex';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

/** A schema and its migrations in order; names are stable once released. */
export interface MigrationSet {
  schema: string;
  migrations: Record<string, Migration>;
}

function sourceOf(set: MigrationSet): Knex.MigrationSource<string> {
  return {
    getMigrations: async () => Object.keys(set.migrations).sort(),
    getMigrationName: (name) => name,
    getMigration: async (name) => {
      const migration = set.migrations[name];
      if (!migration) throw new Error(`unknown migration ${name}`);
      return { up: migration.up, down: migration.down ?? (async () => undefined) };
    },
  };
}

/**
 * Runs every set's pending migrations. Processes that migrate at once (replicas starting, admin
 * CLI calls in parallel) take turns on an advisory lock held by one transaction of the pool:
 * knex's own lock table is created without a guard, so two first runs of a schema collided.
 */
export async function migrate(db: Knex, sets: MigrationSet[]): Promise<string[]> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('idv-migrations'))");
    return migrateSets(db, sets);
  });
}

async function migrateSets(db: Knex, sets: MigrationSet[]): Promise<string[]> {
  const applied: string[] = [];
  for (const set of sets) {
    await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [set.schema]);
    const [, names] = (await db.migrate.latest({
      migrationSource: sourceOf(set),
      schemaName: set.schema,
      tableName: 'knex_migrations',
    })) as [number, string[]];
    applied.push(...names.map((name) => `${set.schema}/${name}`));
  }
  return applied;
}
