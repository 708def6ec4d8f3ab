// The keystore (issue 26): key-encryption keys by id, the data keys wrapped under them, and the
// ledger of data keys destroyed by an erasure. It is a schema of its own, `keys` (made here, with
// the platform's migrations, so every service's database has it), so that the data's backups can
// leave it out and it can be kept apart (docs/operating.md, "Keys and erasure").
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SCHEMA IF NOT EXISTS keys');
  await knex.raw(`
    CREATE TABLE keys.master_keys (
      key_id text PRIMARY KEY,
      provider text NOT NULL,
      state text NOT NULL CHECK (state IN ('current', 'active', 'retired')),
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz
    )`);
  // one current key at a time
  await knex.raw(
    `CREATE UNIQUE INDEX master_keys_one_current ON keys.master_keys (state) WHERE state = 'current'`,
  );
  await knex.raw(`
    CREATE TABLE keys.data_keys (
      id uuid PRIMARY KEY,
      kek_id text NOT NULL,
      wrapped bytea NOT NULL,
      owner_kind text NOT NULL,
      owner_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw('CREATE INDEX data_keys_kek ON keys.data_keys (kek_id)');
  await knex.raw('CREATE INDEX data_keys_owner ON keys.data_keys (owner_kind, owner_id)');
  await knex.raw(`
    CREATE TABLE keys.erased_data_keys (
      id uuid PRIMARY KEY,
      owner_kind text NOT NULL,
      owner_id text NOT NULL,
      erased_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw(
    `COMMENT ON TABLE keys.erased_data_keys IS 'destroyed data keys, never deleted: a data key restored from an older backup of this schema is destroyed again at start'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP SCHEMA keys CASCADE');
}
