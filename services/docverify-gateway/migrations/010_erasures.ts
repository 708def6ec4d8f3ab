// Tombstones of erased verifications and sessions: ids, counts and digests, never personal data.
// One per subject, so a second erasure answers the first's tombstone.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').createTable('erasures', (t) => {
    t.uuid('community_id').notNullable();
    t.text('subject').notNullable().comment('verification | session');
    t.uuid('subject_id').notNullable();
    t.jsonb('tombstone').notNullable().comment('http/Tombstone: ids, counts, digests; no PII');
    t.timestamp('erased_at', { useTz: true }).notNullable();
    t.primary(['community_id', 'subject', 'subject_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTable('erasures');
}
