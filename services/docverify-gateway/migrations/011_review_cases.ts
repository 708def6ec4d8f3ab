// Human review (issue 28): the cases a run opens when its config asks for review, their history
// (who did what, when, with which reason code: no personal data) and operators' notes (sealed under
// the reviewed verification's data key, so an erasure destroys them). A session asked for by a
// resubmission names its case. A run held for review has status 'review'.
import type { Knex } from 'knex';

const LIVE = `('open', 'in_review', 'awaiting_second', 'resubmission_requested')`;

export async function up(knex: Knex): Promise<void> {
  const s = () => knex.schema.withSchema('docverify');
  const at = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });
  /** a line of a case (history, notes): its case and when, gone with the case */
  const ofCase = (t: Knex.CreateTableBuilder) => {
    t.uuid('case_id')
      .notNullable()
      .references('id')
      .inTable('docverify.review_cases')
      .onDelete('CASCADE');
    at(t, 'at').notNullable();
  };
  await s().createTable('review_cases', (t) => {
    t.uuid('id').primary();
    t.uuid('community_id').notNullable();
    t.uuid('tenant_id').notNullable();
    t.uuid('config_id').notNullable();
    t.text('dvc_id').notNullable();
    t.uuid('run_id')
      .notNullable()
      .unique()
      .comment('the verification under review, as its caller knows it (one case per run)');
    t.uuid('session_id').comment("the run's session; null for an async /verify");
    t.uuid('current_run_id')
      .notNullable()
      .comment("the run whose checks are reviewed: a resubmission's once it came back");
    t.text('state')
      .notNullable()
      .comment(
        'open | in_review | awaiting_second | resubmission_requested | decided | expired | erased',
      );
    t.text('outcome').comment('approved | declined, once decided');
    t.boolean('four_eyes').notNullable();
    t.integer('sla_minutes');
    t.text('result_status')
      .notNullable()
      .comment("the reviewed run's own: verified | not_verified");
    t.jsonb('checks')
      .notNullable()
      .comment("the reviewed run's checks: kind, verifier, provider, status, score (no PII)");
    t.text('assignee').comment('username of the operator who claimed it');
    t.text('assignee_sub').comment("that operator's account id (four-eyes compares these)");
    t.jsonb('first_decision').comment('four-eyes: {decision, reasonCode, by, bySub, at}');
    t.uuid('resubmission_session_id').comment('the latest capture session a reviewer asked for');
    t.text('resubmission_sealed').comment(
      "{sessionId, url, expiresAt} sealed under the run's data key (the url holds a page token)",
    );
    at(t, 'opened_at').notNullable();
    at(t, 'due_at').comment('opened_at + sla_minutes');
    at(t, 'hold_until')
      .notNullable()
      .comment(
        'REVIEW_HOLD_HOURS after opening: the sweep then fails its runs (review_hold_expired)',
      );
    at(t, 'decided_at');
    at(t, 'closed_at').comment('decided, expired or erased');
    t.integer('version').notNullable().defaultTo(0).comment('+1 on every step: races lose on it');
    // the queue: a community's cases oldest first, by state and by assignee, a page at a time
    t.index(['community_id', 'opened_at', 'id']);
    t.index(['community_id', 'state', 'opened_at', 'id']);
    t.index(['community_id', 'assignee', 'opened_at', 'id']);
    t.index(['session_id']);
  });
  await knex.raw(
    `CREATE INDEX review_cases_due ON docverify.review_cases (community_id, due_at)
     WHERE state IN ${LIVE} AND due_at IS NOT NULL`,
  );
  await knex.raw(
    `CREATE INDEX review_cases_held ON docverify.review_cases (hold_until) WHERE state IN ${LIVE}`,
  );

  await s().createTable('review_history', (t) => {
    t.bigIncrements('id');
    ofCase(t);
    t.text('actor').notNullable().comment('operator:<username> | licence:<id> | system');
    t.text('action').notNullable();
    t.text('from_state');
    t.text('to_state').notNullable();
    t.text('decision');
    t.text('reason_code');
    t.index(['case_id', 'id']);
  });

  await s().createTable('review_notes', (t) => {
    t.uuid('id').primary();
    ofCase(t);
    t.text('author').notNullable().comment('operator:<username>');
    t.text('text_sealed')
      .notNullable()
      .comment("sealed under the reviewed verification's data key (context: note id)");
    t.index(['case_id', 'at']);
  });

  await s().alterTable('sessions', (t) => {
    t.uuid('review_case_id').comment(
      'a resubmission: the case that asked for it (its run comes back to that case)',
    );
    t.index(['review_case_id']);
  });
  await knex.raw(
    `COMMENT ON COLUMN docverify.verification_runs.status IS
     'processing | pending | review (held for a human review) | completed | failed'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  const s = () => knex.schema.withSchema('docverify');
  await s().alterTable('sessions', (t) => t.dropColumn('review_case_id'));
  await s().dropTableIfExists('review_notes');
  await s().dropTableIfExists('review_history');
  await s().dropTableIfExists('review_cases');
}
