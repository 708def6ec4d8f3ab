// Sign-in people trust (issue 27): the counts behind brute-force throttling and locks, second
// factors (TOTP, passkeys) with their recovery codes, the steps of a sign-in between its first
// and second factor, and each community's sign-in settings (policy, limits, branding).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const s = () => knex.schema.withSchema('oauth');
  await s().createTable('login_throttle', (t) => {
    t.uuid('community_id').notNullable();
    t.binary('subject')
      .notNullable()
      .comment('HMAC of the username tried; empty for an address-wide count');
    t.binary('address')
      .notNullable()
      .comment('HMAC of the client address; empty for an account-wide count');
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('window_start', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('next_allowed_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.integer('locks')
      .notNullable()
      .defaultTo(0)
      .comment('locks so far: each lasts twice the last');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'subject', 'address']);
    t.index(['updated_at']);
  });
  await s().alterTable('accounts', (t) => {
    t.timestamp('credentials_changed_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now())
      .comment('sessions authenticated before this (password or factors reset) sign in again');
    t.timestamp('mfa_offer_skipped_at', { useTz: true }).comment(
      'optional policy: the person chose "not now" to adding a second factor',
    );
  });
  await s().createTable('account_factors', (t) => {
    t.uuid('factor_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('community_id').notNullable();
    t.uuid('account_id').notNullable();
    t.text('kind').notNullable().comment('totp | webauthn');
    t.text('label').notNullable();
    t.text('totp_secret_sealed').comment('base32 TOTP secret sealed under the account data key');
    t.bigInteger('totp_last_step').comment('the last time step used: a code is good once');
    t.text('credential_id').comment('WebAuthn credential id (base64url)');
    t.binary('public_key').comment('WebAuthn credential public key (COSE)');
    t.bigInteger('sign_count').notNullable().defaultTo(0);
    t.specificType('transports', 'text[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.index(['community_id', 'account_id']);
    t.unique(['community_id', 'credential_id']);
  });
  await knex.raw(`
    ALTER TABLE oauth.account_factors ADD CONSTRAINT account_factors_kind CHECK (
      (kind = 'totp' AND totp_secret_sealed IS NOT NULL) OR
      (kind = 'webauthn' AND credential_id IS NOT NULL AND public_key IS NOT NULL))`);
  await s().createTable('recovery_codes', (t) => {
    t.uuid('community_id').notNullable();
    t.uuid('account_id').notNullable();
    t.binary('code_hash').notNullable().comment('HMAC of the code: shown once, never stored');
    t.timestamp('used_at', { useTz: true });
    t.primary(['community_id', 'account_id', 'code_hash']);
  });
  await s().createTable('login_steps', (t) => {
    t.text('uid').primary().comment('the oidc-provider interaction this step belongs to');
    t.uuid('community_id').notNullable();
    t.uuid('account_id').notNullable();
    t.specificType('amr', 'text[]').notNullable().comment('factors passed so far');
    t.text('stage').notNullable().comment('second_factor | enrol | recovery_codes');
    t.text('pending_secret_sealed').comment('a TOTP secret being enrolled, sealed');
    t.text('challenge').comment('the WebAuthn challenge handed to the page (base64url)');
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await s().createTable('sign_in_settings', (t) => {
    t.uuid('community_id').primary();
    t.text('mfa_policy').comment('off | optional | required; null: the default for the community');
    t.specificType('mfa_factors', 'text[]').comment('factors that count; null: totp and webauthn');
    t.jsonb('limits').comment('brute-force limits set for the community; null: the defaults');
    t.text('display_name');
    t.text('accent_color').comment('#rrggbb');
    t.binary('logo').comment('PNG, JPEG or WebP, at most 64 KiB');
    t.text('logo_type');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'sign_in_settings',
    'login_steps',
    'recovery_codes',
    'account_factors',
    'login_throttle',
  ])
    await knex.schema.withSchema('oauth').dropTable(table);
  await knex.schema.withSchema('oauth').alterTable('accounts', (t) => {
    t.dropColumn('credentials_changed_at');
    t.dropColumn('mfa_offer_skipped_at');
  });
}
