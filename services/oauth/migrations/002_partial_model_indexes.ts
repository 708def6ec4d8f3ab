// oidc_models lookups by grant, uid and user code: partial indexes over the rows that have one.
import type { Knex } from 'knex';

/**
 * The full indexes held one entry per row, almost all NULL (a client_credentials token has no
 * grant, no token has a uid or a user code): every token insert paid for three useless entries
 * (about a fifth of the server's time per insert). And before the table had statistics, the
 * planner took the small, NULL-filled user_code index for lookups by id and read every row of
 * the community's model through it. Partial indexes cost nothing for such rows and cannot
 * serve a lookup by id.
 */
const PARTIAL = [
  ['community_id_grant_id', '(community_id, grant_id) WHERE grant_id IS NOT NULL'],
  ['community_id_model_uid', '(community_id, model, uid) WHERE uid IS NOT NULL'],
  ['community_id_model_user_code', '(community_id, model, user_code) WHERE user_code IS NOT NULL'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [columns, definition] of PARTIAL) {
    await knex.raw(`DROP INDEX IF EXISTS oauth.oidc_models_${columns}_index`);
    await knex.raw(
      `CREATE INDEX oidc_models_${columns}_partial ON oauth.oidc_models ${definition}`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [columns, definition] of PARTIAL) {
    await knex.raw(`DROP INDEX IF EXISTS oauth.oidc_models_${columns}_partial`);
    const full = definition.replace(/ WHERE .*/, '');
    await knex.raw(`CREATE INDEX oidc_models_${columns}_index ON oauth.oidc_models ${full}`);
  }
}
