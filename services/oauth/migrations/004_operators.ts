// Operators (issue 28, DESIGN 2.5): accounts of the operators community with their roles and the
// communities they may act on; the console reads them as claims of the operators' issuer.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('oauth').createTable('operator_roles', (t) => {
    t.uuid('community_id').notNullable().comment('the operators community');
    t.uuid('account_id').notNullable();
    t.specificType('roles', 'text[]')
      .notNullable()
      .comment('reviewer | senior_reviewer | admin | auditor | viewer');
    t.specificType('communities', 'uuid[]')
      .notNullable()
      .comment('communities the operator acts on; empty: every community');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('oauth').dropTable('operator_roles');
}
