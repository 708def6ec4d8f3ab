// Why each data key was destroyed: an erasure (the owner's rows go too, also after a restore
// brings them back) or retention (the owner's rows may outlive the key: an ended session keeps
// its result until the caller reads it). Keys destroyed before this column were not told apart:
// they count as retention, so no row is deleted on their account.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE keys.erased_data_keys
      ADD COLUMN reason text NOT NULL DEFAULT 'retention'
      CHECK (reason IN ('erasure', 'retention'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE keys.erased_data_keys DROP COLUMN reason');
}
