// Verification sessions, their captured images (sealed) and verification runs (async /verify and
// every session's processing). Timestamps come from the gateway's clock, not the database's.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const s = () => knex.schema.withSchema('docverify');
  const at = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });
  await s().createTable('sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('community_id').notNullable();
    t.uuid('tenant_id').notNullable();
    t.uuid('config_id').notNullable().comment('not a foreign key: a deleted config fails the run');
    t.text('dvc_id').notNullable().comment('the verification config as the caller named it');
    t.text('token_hash')
      .notNullable()
      .unique()
      .comment('sha256 of the page token; the token itself is never stored');
    t.text('status').notNullable().comment('a state of SESSION_STATES');
    t.text('journey_type').notNullable();
    t.text('document_type').comment('DL | IDCARD | PASSPORT; null until chosen');
    t.boolean('document_fixed').notNullable().comment('the caller fixed the document type');
    t.text('locale').notNullable();
    t.text('redirect_url');
    t.jsonb('metadata').comment("the caller's labels, never PII");
    t.jsonb('settings')
      .notNullable()
      .comment('capture settings and data retention taken from the config at create');
    t.text('request_sealed').comment('userUID, did, tenantDNS, communityName; dropped at the end');
    t.jsonb('consent').comment('{at, textVersion}');
    t.jsonb('attempts').notNullable().defaultTo('{}').comment('capture attempts per side');
    t.uuid('run_id').comment('the verification run processing it');
    t.text('failure').comment('why a failed session failed');
    at(t, 'created_at').notNullable();
    at(t, 'opened_at');
    at(t, 'last_activity_at');
    at(t, 'submitted_at');
    at(t, 'ended_at');
    at(t, 'expires_at').notNullable();
    t.integer('version').notNullable().defaultTo(0);
    t.index(['community_id', 'created_at']);
  });
  // the timers look only at sessions still going
  await knex.raw(
    `CREATE INDEX sessions_live_expiry ON docverify.sessions (expires_at)
     WHERE status IN ('created', 'opened', 'capturing', 'submitted', 'processing')`,
  );
  await knex.raw(
    `CREATE INDEX sessions_idle ON docverify.sessions (last_activity_at)
     WHERE status IN ('opened', 'capturing')`,
  );

  await s().createTable('session_images', (t) => {
    t.uuid('session_id')
      .notNullable()
      .references('id')
      .inTable('docverify.sessions')
      .onDelete('CASCADE');
    t.text('side').notNullable().comment('front | back | passport | selfie');
    t.binary('image_sealed')
      .notNullable()
      .comment('the image bytes sealed with MASTER_KEY (context: session id and side)');
    t.text('media_type').notNullable();
    t.integer('bytes').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.jsonb('quality').notNullable().comment('the measures of the checks, no image content');
    at(t, 'created_at').notNullable();
    at(t, 'expires_at').comment('set when the session ended and its retention keeps images');
    t.boolean('until_retrieved')
      .notNullable()
      .defaultTo(false)
      .comment('deleted when the session result is first retrieved');
    t.primary(['session_id', 'side']);
    t.index(['expires_at']);
  });

  await s().createTable('verification_runs', (t) => {
    t.uuid('id').primary().comment('the verificationId');
    t.uuid('community_id').notNullable();
    t.uuid('tenant_id').notNullable();
    t.uuid('config_id').notNullable();
    t.text('dvc_id').notNullable();
    t.text('kind').notNullable().comment('async_verify | session');
    t.uuid('session_id');
    t.text('status').notNullable().comment('processing | pending | completed | failed');
    t.text('request_sealed').comment('the VerifyRequest (async_verify); dropped when the run ends');
    t.text('result_sealed').comment('the VerifyResult, kept per retention until retrieved');
    t.text('result_mode').comment('until_retrieved | ttl');
    at(t, 'result_expires_at');
    t.jsonb('pending').comment('kinds still pending: {kind: {verifier, followUp, since}}');
    t.text('failure');
    at(t, 'deadline').notNullable().comment('connector jobs of the run must answer by then');
    at(t, 'dispatched_at').comment('when the broker confirmed its work message');
    t.integer('starts').notNullable().defaultTo(0).comment('how often a gateway started it');
    at(t, 'created_at').notNullable();
    at(t, 'ended_at');
    t.index(['result_expires_at']);
  });
  await knex.raw(
    `CREATE INDEX verification_runs_live ON docverify.verification_runs (deadline)
     WHERE status IN ('processing', 'pending')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  const s = () => knex.schema.withSchema('docverify');
  await s().dropTableIfExists('verification_runs');
  await s().dropTableIfExists('session_images');
  await s().dropTableIfExists('sessions');
}
