// Webhooks, their deliveries (one per event and webhook) and every attempt of each delivery.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // a fresh builder per statement: a schema builder accumulates and would replay earlier ones
  const s = () => knex.schema.withSchema('webhooks');
  await s().createTable('webhooks', (t) => {
    t.uuid('id').primary();
    t.uuid('tenant_id').notNullable().comment('platform tenant; not a foreign key across schemas');
    t.uuid('community_id').notNullable();
    t.text('name').notNullable();
    t.specificType('event_names', 'text[]').notNullable();
    t.boolean('disabled').notNullable().defaultTo(false);
    t.text('created_by').notNullable();
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('query').notNullable().defaultTo('[]');
    t.text('criteria').notNullable().defaultTo('ALL');
    t.jsonb('api').notNullable().comment('the api object WITHOUT its credential');
    t.text('credential_sealed').comment('api.credential JSON sealed with MASTER_KEY');
    t.specificType('success_codes', 'integer[]').notNullable();
    t.specificType('retry_codes', 'integer[]').notNullable().defaultTo('{}');
    t.integer('retry_count').notNullable().defaultTo(0);
    t.integer('ttl').notNullable().defaultTo(0).comment('minutes after the event ts; 0 = no cap');
    t.text('secret_sealed').notNullable().comment('whsec_ signing secret, sealed');
    t.text('previous_secret_sealed').comment('the secret before a rotation, still signing');
    t.timestamp('previous_secret_until', { useTz: true }).comment('end of the rotation grace');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['community_id', 'created_at', 'id']);
  });
  await knex.raw('CREATE INDEX webhooks_event_names ON webhooks.webhooks USING gin (event_names)');
  await s().createTable('deliveries', (t) => {
    t.text('id').primary().comment('msg_<hex>; the webhook-id header of every attempt');
    t.uuid('webhook_id')
      .notNullable()
      .references('id')
      .inTable('webhooks.webhooks')
      .onDelete('CASCADE');
    t.text('event_id').notNullable();
    t.text('event_name').notNullable();
    t.text('body').notNullable().comment('the exact callback bytes that are signed and sent');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('round_attempts')
      .notNullable()
      .defaultTo(0)
      .comment('attempts since creation or the last manual redelivery');
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('lease_until', { useTz: true }).comment(
      'while delivering: when another may take it',
    );
    t.timestamp('expires_at', { useTz: true }).comment('event ts + ttl; null = no cap');
    t.timestamp('event_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.unique(['event_id', 'webhook_id']);
    t.index(['webhook_id', 'created_at']);
  });
  await knex.raw(
    `CREATE INDEX deliveries_due ON webhooks.deliveries (next_attempt_at)
     WHERE status IN ('pending', 'delivering')`,
  );
  await s().createTable('attempts', (t) => {
    t.bigIncrements('id');
    t.text('delivery_id')
      .notNullable()
      .references('id')
      .inTable('webhooks.deliveries')
      .onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.integer('status_code');
    t.integer('latency_ms').notNullable();
    t.text('outcome').notNullable().comment('succeeded, retry or failed');
    t.text('error');
    t.index(['delivery_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('webhooks').dropTableIfExists('attempts');
  await knex.schema.withSchema('webhooks').dropTableIfExists('deliveries');
  await knex.schema.withSchema('webhooks').dropTableIfExists('webhooks');
}
