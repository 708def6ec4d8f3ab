// Rate limits per licence and per community: operators' limits, and the token buckets every replica shares.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('platform').createTable('rate_limits', (t) => {
    t.text('scope').notNullable().comment('licence | community');
    t.uuid('subject_id').notNullable().comment('the licence id or the community id');
    t.double('rps').notNullable().comment('requests a second the bucket refills by');
    t.integer('burst').notNullable().comment('size of the bucket: requests allowed at once');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scope', 'subject_id']);
  });
  await knex.raw(
    `ALTER TABLE platform.rate_limits ADD CONSTRAINT rate_limits_values CHECK (scope IN ('licence','community') AND rps > 0 AND burst >= 1)`,
  );
  await knex.schema.withSchema('platform').createTable('rate_buckets', (t) => {
    t.text('scope').notNullable().comment('licence | community');
    t.uuid('subject_id').notNullable().comment('the licence id or the community id');
    t.double('tokens')
      .notNullable()
      .comment(
        'requests left at refilled_at; below 0 when replicas together admitted more (the refill pays it back)',
      );
    t.integer('taken')
      .notNullable()
      .comment('requests the latest sync added: what one replica admitted since its previous sync');
    t.double('rps')
      .notNullable()
      .comment(
        'the limit in force at the latest sync (rate_limits, else the replica default); 0: none',
      );
    t.integer('burst').notNullable().comment('the bucket size in force at the latest sync');
    t.timestamp('refilled_at', { useTz: true })
      .notNullable()
      .comment('when tokens was computed (database clock)');
    t.primary(['scope', 'subject_id']);
  });
  // a bucket is worth nothing after a crash (it starts full again), so its many small updates
  // write no WAL; for the same reason it is not replicated to a standby
  await knex.raw('ALTER TABLE platform.rate_buckets SET UNLOGGED');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('platform').dropTableIfExists('rate_buckets');
  await knex.schema.withSchema('platform').dropTableIfExists('rate_limits');
}
