// Review case rows and their history. A case opens (or a resubmission's run brings it back) in the
// transaction that holds its run for review; every later step is a conditional UPDATE on the
// version it was judged against (domain/reviewSteps.ts), with its history line in the same
// transaction: of two claims or decisions at once exactly one lands.
import type { ReviewCaseState, ReviewSettings, VerifyResult } from '@idv/contracts';
import type { Knex } from '@idv/db';
import { UUID } from '@idv/platform';
import { resultStatusOf, reviewChecks } from '../domain/reviewChecks.ts';
import { LIVE_CASE_STATES, type CaseStep } from '../domain/reviewSteps.ts';
import { toCase, type ReviewCaseRecord, type ReviewCaseRow } from './reviewCaseRecord.ts';
import type { RunRecord } from './runRecord.ts';

export type { ReviewCaseRecord } from './reviewCaseRecord.ts';

const CASES = 'docverify.review_cases';
const HISTORY = 'docverify.review_history';

export interface HistoryLine {
  at: Date;
  actor: string;
  action: string;
  from: ReviewCaseState | null;
  to: ReviewCaseState;
  decision?: string | undefined;
  reasonCode?: string | undefined;
}

export async function addHistory(trx: Knex, caseId: string, line: HistoryLine): Promise<void> {
  await trx(HISTORY).insert({
    case_id: caseId,
    at: line.at,
    actor: line.actor,
    action: line.action,
    from_state: line.from,
    to_state: line.to,
    decision: line.decision ?? null,
    reason_code: line.reasonCode ?? null,
  });
}

/**
 * The sweep (every SESSION_SWEEP_MS) fails a case's held runs at its hold's end; its sessions
 * expire a day later at the soonest, so no read of them applies the expiry first.
 */
const SESSION_HOLD_GRACE_MS = 86_400_000;

/** A held session does not expire while its case may still be decided. */
async function holdSession(trx: Knex, sessionId: string | null, holdUntil: Date): Promise<void> {
  if (!sessionId) return;
  const until = new Date(holdUntil.getTime() + SESSION_HOLD_GRACE_MS);
  await trx('docverify.sessions')
    .where({ id: sessionId })
    .where('expires_at', '<', until)
    .update({ expires_at: until });
}

export interface NewCase {
  id: string;
  run: RunRecord;
  review: ReviewSettings;
  result: VerifyResult;
  openedAt: Date;
  holdUntil: Date;
}

/** In the transaction that holds `run` for review: its case, open. */
export async function openCase(trx: Knex, c: NewCase): Promise<ReviewCaseRecord> {
  const sla = c.review.slaMinutes ?? null;
  const [row] = (await trx(CASES)
    .insert({
      id: c.id,
      community_id: c.run.communityId,
      tenant_id: c.run.tenantId,
      config_id: c.run.configId,
      dvc_id: c.run.dvcID,
      run_id: c.run.id,
      session_id: c.run.sessionId,
      current_run_id: c.run.id,
      state: 'open',
      four_eyes: c.review.fourEyes ?? false,
      sla_minutes: sla,
      result_status: resultStatusOf(c.result),
      checks: JSON.stringify(reviewChecks(c.result)),
      opened_at: c.openedAt,
      due_at: sla === null ? null : new Date(c.openedAt.getTime() + sla * 60_000),
      hold_until: c.holdUntil,
    })
    .returning('*')) as ReviewCaseRow[];
  await addHistory(trx, c.id, { at: c.openedAt, actor: 'system', action: 'opened', from: null, to: 'open' }); // prettier-ignore
  await holdSession(trx, c.run.sessionId, c.holdUntil);
  return toCase(row!);
}

/**
 * In the transaction that holds a resubmission's `run`: its case open again, reviewing that run;
 * undefined when the case no longer waits for a resubmission (decided, expired, erased meanwhile).
 */
export async function reopenCase(
  trx: Knex,
  caseId: string,
  run: RunRecord,
  result: VerifyResult,
  now: Date,
): Promise<ReviewCaseRecord | undefined> {
  const [row] = (await trx(CASES)
    .where({ id: caseId, state: 'resubmission_requested' })
    .update({
      state: 'open',
      current_run_id: run.id,
      result_status: resultStatusOf(result),
      checks: JSON.stringify(reviewChecks(result)),
      resubmission_sealed: null,
      version: trx.raw('version + 1'),
    })
    .returning('*')) as ReviewCaseRow[];
  if (!row) return undefined;
  await addHistory(trx, caseId, { at: now, actor: 'system', action: 'resubmission_received', from: 'resubmission_requested', to: 'open' }); // prettier-ignore
  await holdSession(trx, run.sessionId, row.hold_until);
  return toCase(row);
}

export interface CaseListQuery {
  state?: ReviewCaseState | undefined;
  assignee?: string | undefined;
  overdueAt?: Date | undefined;
  after?: { at: Date; id: string } | undefined;
  limit: number;
}

export class ReviewCaseStore {
  constructor(private readonly db: Knex) {}

  /** A transaction of the gateway's database, for a step and all it carries along. */
  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async get(id: string, communityId?: string, trx: Knex = this.db) {
    if (!UUID.test(id)) return undefined;
    const query = trx(CASES).where({ id });
    if (communityId) query.where({ community_id: communityId });
    const row = (await query.first()) as ReviewCaseRow | undefined;
    return row && toCase(row);
  }

  async byRun(runId: string): Promise<ReviewCaseRecord | undefined> {
    const row = (await this.db(CASES).where({ run_id: runId }).first()) as ReviewCaseRow | undefined; // prettier-ignore
    return row && toCase(row);
  }

  /** A community's cases, oldest first (the queue), keyset-paged on (opened_at, id). */
  async list(communityId: string, q: CaseListQuery): Promise<ReviewCaseRecord[]> {
    const query = this.db(CASES)
      .where({ community_id: communityId })
      .orderBy([{ column: 'opened_at' }, { column: 'id' }])
      .limit(q.limit);
    if (q.state) query.where({ state: q.state });
    if (q.assignee) query.where({ assignee: q.assignee });
    if (q.overdueAt)
      query.whereIn('state', LIVE_CASE_STATES).whereNotNull('due_at').where('due_at', '<', q.overdueAt); // prettier-ignore
    if (q.after) query.whereRaw('(opened_at, id) > (?, ?)', [q.after.at, q.after.id]);
    return ((await query) as ReviewCaseRow[]).map(toCase);
  }

  async history(caseId: string) {
    return (await this.db(HISTORY).where({ case_id: caseId }).orderBy('id')) as {
      at: Date;
      actor: string;
      action: string;
      from_state: ReviewCaseState | null;
      to_state: ReviewCaseState;
      decision: string | null;
      reason_code: string | null;
    }[];
  }

  /**
   * Applies `step` (with `also` columns) to `kase` only while it is at the version the step was
   * judged against; undefined when another step landed first.
   */
  async apply(
    trx: Knex,
    kase: ReviewCaseRecord,
    step: CaseStep,
    line: Omit<HistoryLine, 'action' | 'from' | 'to'>,
    also: Record<string, unknown> = {},
  ): Promise<ReviewCaseRecord | undefined> {
    const closes = step.to === 'decided';
    const [row] = (await trx(CASES)
      .where({ id: kase.id, version: kase.version })
      .update({
        state: step.to,
        assignee: step.assignee?.username ?? null,
        assignee_sub: step.assignee?.sub ?? null,
        first_decision: step.firstDecision ? JSON.stringify(step.firstDecision) : null,
        ...(step.outcome ? { outcome: step.outcome } : {}),
        ...(closes ? { decided_at: line.at, closed_at: line.at } : {}),
        ...also,
        version: kase.version + 1,
      })
      .returning('*')) as ReviewCaseRow[];
    if (!row) return undefined;
    await addHistory(trx, kase.id, { ...line, action: step.action, from: kase.state, to: step.to }); // prettier-ignore
    return toCase(row);
  }

  /** Holds a live case as it is for the rest of `trx` (a note lands on a live case only). */
  async lockLive(trx: Knex, id: string): Promise<boolean> {
    const row: unknown = await trx(CASES).where({ id }).whereIn('state', LIVE_CASE_STATES).forShare().first('id'); // prettier-ignore
    return row !== undefined;
  }

  /** Live cases held past their hold_until: their runs are to fail. */
  async overHold(now: Date, limit: number): Promise<ReviewCaseRecord[]> {
    const rows = (await this.db(CASES)
      .whereIn('state', LIVE_CASE_STATES)
      .where('hold_until', '<=', now)
      .orderBy('hold_until')
      .limit(limit)) as ReviewCaseRow[];
    return rows.map(toCase);
  }

  /**
   * Ends a case without a decision, in `trx`: expired (a live one), erased (any not erased yet);
   * false when it was not in such a state.
   */
  async close(
    trx: Knex,
    kase: ReviewCaseRecord,
    to: 'expired' | 'erased',
    line: Omit<HistoryLine, 'from' | 'to'>,
  ) {
    const query = trx(CASES).where({ id: kase.id });
    if (to === 'expired') query.whereIn('state', LIVE_CASE_STATES);
    else query.whereNot({ state: 'erased' });
    const changed = await query.update({ state: to, assignee: null, assignee_sub: null, resubmission_sealed: null, closed_at: line.at, version: trx.raw('version + 1') }); // prettier-ignore
    if (changed > 0) await addHistory(trx, kase.id, { ...line, from: kase.state, to });
    return changed > 0;
  }

  /** The runs of a case held for review: the one under review and the resubmissions' that came back. */
  async heldRuns(trx: Knex, kase: ReviewCaseRecord): Promise<string[]> {
    const rows = (await trx('docverify.verification_runs')
      .select('id')
      .where({ status: 'review' })
      .where(
        (q) =>
        q.where({ id: kase.runId }).orWhereIn('session_id', trx('docverify.sessions').select('id').where({ review_case_id: kase.id })), // prettier-ignore
      )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The case's resubmission sessions still in one of `states`, oldest first. */
  async resubmissionSessions(kase: ReviewCaseRecord, states: string[], trx: Knex = this.db) {
    const rows = (await trx('docverify.sessions')
      .select('id')
      .where({ review_case_id: kase.id })
      .whereIn('status', states)
      .orderBy('created_at')) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
