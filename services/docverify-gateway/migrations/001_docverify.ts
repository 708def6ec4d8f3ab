// Verifiers and verification configs per community; configs sealed where they hold secrets.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // a fresh builder per statement: a schema builder accumulates and would replay earlier ones
  const s = () => knex.schema.withSchema('docverify');
  await s().createTable('verifiers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('community_id')
      .notNullable()
      .comment('platform community; not a foreign key across schemas');
    t.text('tag')
      .notNullable()
      .comment('letters, digits, _ and -; unique per community; never changes');
    t.text('name').notNullable();
    t.text('type').notNullable().comment('one of the 13 connector types');
    t.text('connector_url').notNullable();
    t.text('config_sealed')
      .notNullable()
      .comment('the whole config JSON sealed with MASTER_KEY (context: verifier id)');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['community_id', 'tag']);
  });
  await s().createTable('verification_configs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable();
    t.uuid('community_id').notNullable();
    t.text('tag').notNullable().comment('the dvcID callers name, unique per community');
    t.text('name').notNullable();
    t.jsonb('arrays')
      .notNullable()
      .comment('the twelve verifier arrays: {kind: [{verifier, skip, debug, returnRawData}]}');
    t.jsonb('settings')
      .notNullable()
      .comment('comparison, retention, policy, liveness, scores, retry counts');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['community_id', 'tag']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').dropTableIfExists('verification_configs');
  await knex.schema.withSchema('docverify').dropTableIfExists('verifiers');
}
