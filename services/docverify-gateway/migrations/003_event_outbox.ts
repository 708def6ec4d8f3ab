// Verification events owed to callers who were already answered: published from here, so a crash
// or a broker outage between the answer and the publish loses none.
import type { Knex } from 'knex';
import { createOutboxTable } from '@idv/db';

export async function up(knex: Knex): Promise<void> {
  await createOutboxTable(knex, 'docverify', 'event_outbox');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTableIfExists('event_outbox');
}
