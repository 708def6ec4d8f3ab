// Guards of the keystore (issue 26 review): an erased owner is looked up by owner (no key is made
// for it again), and no data key is wrapped, or re-wrapped, under a retired key-encryption key (a
// process still on the old current key for a few seconds gets an error, not a key nobody can open
// once the operator removed the retired one).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX erased_data_keys_owner ON keys.erased_data_keys (owner_kind, owner_id)',
  );
  await knex.raw(`
    CREATE FUNCTION keys.refuse_retired_kek() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE kek_state text;
    BEGIN
      -- KEY SHARE waits for a retirement under way (FOR UPDATE), and holds one off until commit,
      -- which then counts this key
      SELECT state INTO kek_state FROM keys.master_keys WHERE key_id = NEW.kek_id FOR KEY SHARE;
      IF kek_state = 'retired' THEN
        RAISE EXCEPTION 'the key-encryption key % is retired', NEW.kek_id USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER data_keys_not_retired BEFORE INSERT OR UPDATE OF kek_id ON keys.data_keys
    FOR EACH ROW EXECUTE FUNCTION keys.refuse_retired_kek()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER data_keys_not_retired ON keys.data_keys');
  await knex.raw('DROP FUNCTION keys.refuse_retired_kek()');
  await knex.raw('DROP INDEX keys.erased_data_keys_owner');
}
