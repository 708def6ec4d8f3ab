// Tenants, communities, licences (hash only), service keys (sealed) and the requestid replay log.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // a fresh builder per statement: a schema builder accumulates and would replay earlier ones
  const s = () => knex.schema.withSchema('platform');
  await s().createTable('tenants', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable().unique().comment('display name, unique across the platform');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await s().createTable('communities', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id')
      .notNullable()
      .references('id')
      .inTable('platform.tenants')
      .onDelete('RESTRICT');
    t.text('name')
      .notNullable()
      .unique()
      .comment('unique: the OAuth issuer path /community/{name} uses it');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id']);
  });
  await knex.raw(
    `ALTER TABLE platform.communities ADD CONSTRAINT communities_name_charset CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$')`,
  );
  await s().createTable('licences', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('key_hash')
      .notNullable()
      .unique()
      .comment('SHA-256 hex of the licence key; the key itself is never stored');
    t.text('level').notNullable().comment('system | service | service_ext | community');
    t.timestamp('expires_at', { useTz: true }).nullable().comment('null: does not expire');
    t.boolean('disabled').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `ALTER TABLE platform.licences ADD CONSTRAINT licences_level CHECK (level IN ('system','service','service_ext','community'))`,
  );
  await s().createTable('licence_communities', (t) => {
    t.uuid('licence_id')
      .notNullable()
      .references('id')
      .inTable('platform.licences')
      .onDelete('CASCADE');
    t.uuid('community_id')
      .notNullable()
      .references('id')
      .inTable('platform.communities')
      .onDelete('CASCADE');
    t.primary(['licence_id', 'community_id']);
    t.index(['community_id']);
  });
  await s().createTable('service_keys', (t) => {
    t.text('service').primary().comment('oauth | docverify | webhooks: one current key each');
    t.text('public_key').notNullable().comment('base64 X||Y; the keyId of /servicekeys');
    t.text('private_key_sealed').notNullable().comment('private key sealed with MASTER_KEY');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await s().createTable('request_nonces', (t) => {
    t.text('uuid').primary().comment('requestid uuid seen inside the time window');
    t.timestamp('expires_at', { useTz: true })
      .notNullable()
      .comment('after this the ts check rejects a replay anyway');
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'request_nonces',
    'service_keys',
    'licence_communities',
    'licences',
    'communities',
    'tenants',
  ]) {
    await knex.schema.withSchema('platform').dropTableIfExists(table);
  }
}
