// The operator's caps on a verifier's provider calls (its contracted concurrency and rate).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').alterTable('verifiers', (t) => {
    t.jsonb('limits')
      .notNullable()
      .defaultTo('{}')
      .comment(
        '{maxConcurrent?, maxPerSecond?}: per connector worker process; carried by every job of the verifier',
      );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').alterTable('verifiers', (t) => {
    t.dropColumn('limits');
  });
}
