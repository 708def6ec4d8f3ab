// Schema `oauth`: clients, signing keys, accounts, proof trust, external IdPs and oidc-provider rows.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // a fresh builder per statement: a schema builder accumulates and would replay earlier ones
  const s = () => knex.schema.withSchema('oauth');
  await s().createTable('clients', (t) => {
    t.uuid('community_id').notNullable().comment('platform community; not a cross-schema FK');
    t.text('client_id').notNullable();
    t.text('secret_sealed')
      .notNullable()
      .comment('client secret sealed with MASTER_KEY (context: community id + client id)');
    t.jsonb('metadata').notNullable().comment('redirect_uris, grant_types, response_types');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'client_id']);
  });
  await s().createTable('signing_keys', (t) => {
    t.uuid('community_id').notNullable();
    t.text('kid').notNullable();
    t.text('state').notNullable().comment('next (published only) | current (signs) | retired');
    t.text('private_jwk_sealed').notNullable().comment('ES256 private JWK sealed with MASTER_KEY');
    t.timestamp('retire_after', { useTz: true }).comment('retired keys are dropped after this');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'kid']);
  });
  // two replicas creating a community's first keys at once must not both make a current key
  await knex.raw(
    "CREATE UNIQUE INDEX signing_keys_one_current ON oauth.signing_keys (community_id) WHERE state = 'current'",
  );
  await knex.raw(
    "CREATE UNIQUE INDEX signing_keys_one_next ON oauth.signing_keys (community_id) WHERE state = 'next'",
  );
  await s().createTable('accounts', (t) => {
    t.uuid('community_id').notNullable();
    t.uuid('account_id').notNullable().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('username').notNullable();
    t.text('password_hash').notNullable().comment('scrypt$N$r$p$salt$hash (base64)');
    t.text('display_name');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'account_id']);
    t.unique(['community_id', 'username']);
  });
  await s().createTable('proof_keys', (t) => {
    t.uuid('community_id').notNullable();
    t.text('kid').notNullable();
    t.jsonb('public_jwk').notNullable().comment('secp256k1 public JWK trusted to sign proofs');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'kid']);
  });
  await s().createTable('external_idps', (t) => {
    t.uuid('community_id').primary();
    t.text('issuer').notNullable();
    t.text('audience').notNullable();
    t.text('jwks_uri').notNullable();
  });
  await s().createTable('used_proofs', (t) => {
    t.uuid('community_id').notNullable();
    t.text('jti').notNullable().comment('a proof JWT id seen before its expiry: a replay');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['community_id', 'jti']);
    t.index(['expires_at']);
  });
  await s().createTable('eam_contexts', (t) => {
    t.text('ref').primary().comment('random reference carried as the eam_ref parameter');
    t.uuid('community_id').notNullable();
    t.text('oid').notNullable();
    t.text('tid').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await s().createTable('oidc_models', (t) => {
    t.uuid('community_id').notNullable().comment('issuer scope: a row is invisible elsewhere');
    t.text('model').notNullable().comment('oidc-provider model name, e.g. AccessToken');
    t.text('id').notNullable();
    t.jsonb('payload').notNullable();
    t.text('grant_id');
    t.text('uid');
    t.text('user_code');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('consumed_at', { useTz: true });
    t.primary(['community_id', 'model', 'id']);
    t.index(['community_id', 'grant_id']);
    t.index(['community_id', 'model', 'uid']);
    t.index(['community_id', 'model', 'user_code']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'oidc_models',
    'eam_contexts',
    'used_proofs',
    'external_idps',
    'proof_keys',
    'accounts',
    'signing_keys',
    'clients',
  ]) {
    await knex.schema.withSchema('oauth').dropTableIfExists(table);
  }
}
