// Verification results kept for retrieval, per the config's data retention choice.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').createTable('verifications', (t) => {
    t.uuid('id').primary().comment('the verificationId returned to the caller');
    t.uuid('community_id').notNullable();
    t.text('result_sealed')
      .notNullable()
      .comment('the result JSON sealed with MASTER_KEY (context: id); holds PII');
    t.text('mode')
      .notNullable()
      .comment('until_retrieved: purged on first read; ttl: purged at expires_at');
    t.timestamp('expires_at', { useTz: true })
      .notNullable()
      .comment('purged by the sweep after this, whatever the mode');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTableIfExists('verifications');
}
