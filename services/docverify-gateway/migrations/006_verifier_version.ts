// A version per verifier and per verification config: a PATCH judges the row it read and stores
// its change only if the row is still at that version, so two concurrent changes never compose.
import type { Knex } from 'knex';

const TABLES = ['verifiers', 'verification_configs'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.withSchema('docverify').alterTable(table, (t) => {
      t.integer('version')
        .notNullable()
        .defaultTo(1)
        .comment('+1 on every change; an update names the version it was judged against');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.withSchema('docverify').alterTable(table, (t) => {
      t.dropColumn('version');
    });
  }
}
