// One EAM context per IdP token: a replayed id_token_hint finds the reference its first use made
// instead of adding a row each time, so one captured token cannot fill oauth.eam_contexts.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('oauth').alterTable('eam_contexts', (t) => {
    t.binary('hint_hash').nullable().comment('SHA-256 of the id_token_hint the context came from');
    t.unique(['community_id', 'hint_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema('oauth').alterTable('eam_contexts', (t) => {
    t.dropUnique(['community_id', 'hint_hash']);
    t.dropColumn('hint_hash');
  });
}
