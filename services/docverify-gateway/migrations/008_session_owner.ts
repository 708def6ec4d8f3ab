// The licence that asked for a session, a run or a kept result: only it reads the one-time result
// (and so consumes it with the session's images); a system licence sees the state only.
import type { Knex } from 'knex';

const TABLES = ['sessions', 'verification_runs', 'verifications'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.withSchema('docverify').alterTable(table, (t) => {
      t.uuid('owner_licence_id').comment(
        'platform licence id of the caller that created it; only that licence reads the result. Null on rows from before 008: any licence of the community, as then',
      );
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.withSchema('docverify').alterTable(table, (t) => {
      t.dropColumn('owner_licence_id');
    });
  }
}
