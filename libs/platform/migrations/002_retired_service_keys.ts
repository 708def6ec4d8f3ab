// Service keys replaced by a reset, kept (sealed) while callers that cached them may still use them.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('platform').createTable('retired_service_keys', (t) => {
    t.text('service').notNullable().comment('oauth | docverify | webhooks');
    t.text('public_key').notNullable().comment('base64 X||Y of the replaced key');
    t.text('private_key_sealed').notNullable().comment('private key sealed with MASTER_KEY');
    t.timestamp('created_at', { useTz: true })
      .notNullable()
      .comment('when the key was made (its created_at in service_keys)');
    t.timestamp('retired_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now())
      .comment('when a reset replaced it');
    t.timestamp('accepted_until', { useTz: true })
      .notNullable()
      .comment(
        'retired_at + SERVICE_KEY_GRACE_SECONDS of the reset: credentials made with it open until then; purged after',
      );
    t.primary(['service', 'public_key']);
    t.index(['service', 'accepted_until']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('platform').dropTableIfExists('retired_service_keys');
}
