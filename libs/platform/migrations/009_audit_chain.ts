// The audit log becomes a hash chain (issue 28): each row carries its place in the chain (seq),
// the hash of the row before it and its own hash, sha256(prev_hash || content), set by a trigger
// so every writer is covered. The trigger takes the chain's head (platform.audit_head, one row)
// FOR UPDATE, which serialises writers until their transaction ends: chain order is the order
// writers took the head, which is also their commit order. `id` comes from a sequence before the
// trigger runs, so ids may stand in another order: the chain is walked by seq, never by id.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE platform.audit_log
      ADD COLUMN seq bigint,
      ADD COLUMN prev_hash bytea,
      ADD COLUMN hash bytea`);
  await knex.raw(
    `COMMENT ON COLUMN platform.audit_log.seq IS 'place in the hash chain, 1, 2, ... with no gap: the order the chain trigger ran (ids may stand in another order)'`,
  );
  await knex.raw(
    `COMMENT ON COLUMN platform.audit_log.prev_hash IS 'hash of the entry at seq - 1; 32 zero bytes for the first'`,
  );
  await knex.raw(
    `COMMENT ON COLUMN platform.audit_log.hash IS 'sha256(prev_hash || platform.audit_entry_content(row))'`,
  );
  // the canonical bytes of an entry: a jsonb array's text (jsonb prints one way only), with a
  // version tag first, `at` in UTC with microseconds and `details` in jsonb's own text form
  await knex.raw(`
    CREATE FUNCTION platform.audit_entry_content(entry platform.audit_log) RETURNS bytea
    LANGUAGE sql STABLE AS $$
      SELECT convert_to(jsonb_build_array(
        'idv-audit/1'::text, entry.seq, entry.id,
        to_char(entry.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        entry.actor, entry.action, entry.community_id, entry.subject_kind, entry.subject_id,
        entry.details
      )::text, 'UTF8')
    $$`);
  await knex.raw(`
    CREATE TABLE platform.audit_head (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      seq bigint NOT NULL,
      hash bytea NOT NULL
    )`);
  await knex.raw(
    `COMMENT ON TABLE platform.audit_head IS 'the last entry of the audit chain; moved only by the chain trigger'`,
  );
  await backfill(knex);
  await knex.raw(`
    ALTER TABLE platform.audit_log
      ALTER COLUMN seq SET NOT NULL,
      ALTER COLUMN prev_hash SET NOT NULL,
      ALTER COLUMN hash SET NOT NULL`);
  await knex.raw('CREATE UNIQUE INDEX audit_log_seq ON platform.audit_log (seq)');

  // SECURITY DEFINER: a writer needs INSERT on the log only, never a right on the head
  await knex.raw(`
    CREATE FUNCTION platform.audit_log_chain() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
    DECLARE
      head platform.audit_head;
    BEGIN
      -- by its key: a seq scan would read every dead version a busy head leaves until vacuumed
      SELECT * INTO STRICT head FROM platform.audit_head WHERE singleton FOR UPDATE;
      NEW.seq := head.seq + 1;
      NEW.prev_hash := head.hash;
      NEW.hash := sha256(NEW.prev_hash || platform.audit_entry_content(NEW));
      UPDATE platform.audit_head SET seq = NEW.seq, hash = NEW.hash WHERE singleton;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER audit_log_chain BEFORE INSERT ON platform.audit_log
    FOR EACH ROW EXECUTE FUNCTION platform.audit_log_chain()`);
  // the head moves with the chain only: an UPDATE not made from a trigger (the chain's) is refused
  await knex.raw(`
    CREATE FUNCTION platform.audit_head_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN RETURN NEW; END IF;
      RAISE EXCEPTION 'the audit head moves only with the audit log' USING ERRCODE = 'insufficient_privilege';
    END $$`);
  await knex.raw(`
    CREATE TRIGGER audit_head_guard BEFORE UPDATE OR DELETE ON platform.audit_head
    FOR EACH ROW EXECUTE FUNCTION platform.audit_head_guard()`);
}

/**
 * Rows written before this migration are chained in id order, the nearest record of the order
 * they came in. ALTER TABLE above holds the table's ACCESS EXCLUSIVE lock until the migration
 * commits, so no row arrives between the backfill and the trigger.
 */
async function backfill(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE platform.audit_log DISABLE TRIGGER audit_log_append_only');
  await knex.raw(`
    DO $$
    DECLARE
      entry platform.audit_log;
      place bigint := 0;
      previous bytea := decode(repeat('00', 32), 'hex');
    BEGIN
      FOR entry IN SELECT * FROM platform.audit_log ORDER BY id LOOP
        place := place + 1;
        entry.seq := place;
        entry.prev_hash := previous;
        entry.hash := sha256(previous || platform.audit_entry_content(entry));
        UPDATE platform.audit_log SET seq = entry.seq, prev_hash = entry.prev_hash, hash = entry.hash
          WHERE id = entry.id;
        previous := entry.hash;
      END LOOP;
      INSERT INTO platform.audit_head (seq, hash) VALUES (place, previous);
    END $$`);
  await knex.raw('ALTER TABLE platform.audit_log ENABLE TRIGGER audit_log_append_only');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER audit_log_chain ON platform.audit_log');
  await knex.raw('DROP FUNCTION platform.audit_log_chain()');
  await knex.raw('DROP TABLE platform.audit_head');
  await knex.raw('DROP FUNCTION platform.audit_head_guard()');
  await knex.raw('DROP FUNCTION platform.audit_entry_content(platform.audit_log)');
  await knex.raw(
    'ALTER TABLE platform.audit_log DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash',
  );
}
