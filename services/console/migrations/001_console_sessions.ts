// The console's sessions (backend for frontend): the operator's tokens stay here, sealed under a
// data key of the platform's keyring; the browser holds only a random id whose hash keys the row.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('console').createTable('sessions', (t) => {
    t.text('id_hash').primary().comment("sha256 (base64url) of the cookie's random id");
    t.text('sub').notNullable().comment("the operator's account id at the operators' issuer");
    t.text('username').notNullable();
    t.jsonb('roles').notNullable().comment('roles claim of the last ID token');
    t.jsonb('communities').notNullable().comment('communities claim; [] = every community');
    t.jsonb('amr').notNullable().defaultTo('[]');
    t.timestamp('auth_time', { useTz: true })
      .notNullable()
      .comment('when the operator last logged in at the issuer');
    t.text('access_token_sealed').notNullable();
    t.text('refresh_token_sealed');
    t.text('id_token_sealed')
      .notNullable()
      .comment('the id_token_hint of the logout at the issuer');
    t.timestamp('access_expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true })
      .notNullable()
      .comment('absolute end (12 h after login)');
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('console').dropTableIfExists('sessions');
}
