// A session's locale only when its caller gave one (sessionRequest.locale): without it the capture
// page follows the person's browser languages, which a stored 'en' default hid.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema('docverify').alterTable('sessions', (t) => {
    t.text('locale').nullable().alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('docverify.sessions').whereNull('locale').update({ locale: 'en' });
  await knex.schema.withSchema('docverify').alterTable('sessions', (t) => {
    t.text('locale').notNullable().alter();
  });
}
