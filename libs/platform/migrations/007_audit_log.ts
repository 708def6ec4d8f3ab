// The platform's audit log: one row per operator or caller action on personal data (an erasure,
// first), written in the transaction of the action itself. Append-only: a trigger refuses UPDATE
// and DELETE, so a row once written stays as written (the console's audit, issue 28, reads it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE platform.audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      actor text NOT NULL,
      action text NOT NULL,
      community_id uuid,
      subject_kind text NOT NULL,
      subject_id text NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'
    )`);
  await knex.raw('CREATE INDEX audit_log_subject ON platform.audit_log (subject_kind, subject_id)');
  await knex.raw(
    `COMMENT ON COLUMN platform.audit_log.details IS 'ids, counts and digests only: never personal data'`,
  );
  await knex.raw(`
    CREATE FUNCTION platform.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = 'insufficient_privilege';
    END $$`);
  await knex.raw(`
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON platform.audit_log
    FOR EACH ROW EXECUTE FUNCTION platform.audit_log_append_only()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE platform.audit_log');
  await knex.raw('DROP FUNCTION platform.audit_log_append_only()');
}
