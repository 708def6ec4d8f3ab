// When a session's roles and communities were last read at the operators' issuer: the session
// guard reads them again from userinfo once this is a minute old, so a demoted or removed operator
// keeps no more than a minute of what the last ID token granted.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('console').alterTable('sessions', (t) => {
    t.timestamp('claims_checked_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now())
      .comment(
        'when roles and communities were last read at the issuer (login, refresh, userinfo)',
      );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('console').alterTable('sessions', (t) => {
    t.dropColumn('claims_checked_at');
  });
}
