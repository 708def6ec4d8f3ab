// Review case rows and their history. A case opens (or a resubmission's run brings it back) in the
// transaction that holds its run for review (reviewCaseOpening.ts); every later step is a
// conditional UPDATE on the version it was judged against (reviewSteps.ts), with its
// history line in the same transaction: of two claims or decisions at once exactly one lands.
import type { ReviewCaseState } from '@idv/contracts';
import type { Knex } from '@idv/db';
import { UUID } from '@idv/platform';
import { LIVE_CASE_STATES, type CaseStep } from './reviewSteps.ts';
import { toCase, type ReviewCaseRecord, type ReviewCaseRow } from './reviewCaseRecord.ts';

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

  /** The case as it is, locked for the rest of `trx` (a resubmission's submit steps on it). */
  async lock(trx: Knex, id: string): Promise<ReviewCaseRecord | undefined> {
    const row = (await trx(CASES).where({ id }).forUpdate().first()) as ReviewCaseRow | undefined;
    return row && toCase(row);
  }

  async byRun(runId: string): Promise<ReviewCaseRecord | undefined> {
    const row = (await this.db(CASES).where({ run_id: runId }).first()) as
      ReviewCaseRow | undefined;
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
      query
        .whereIn('state', LIVE_CASE_STATES)
        .whereNotNull('due_at')
        .where('due_at', '<', q.overdueAt);
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
        claimed_from: step.claimedFrom ?? null,
        ...(step.outcome ? { outcome: step.outcome } : {}),
        ...(closes ? { decided_at: line.at, closed_at: line.at } : {}),
        ...also,
        version: kase.version + 1,
      })
      .returning('*')) as ReviewCaseRow[];
    if (!row) return undefined;
    await addHistory(trx, kase.id, { ...line, action: step.action, from: kase.state, to: step.to });
    return toCase(row);
  }

  /** Holds a live case as it is for the rest of `trx` (a note lands on a live case only). */
  async lockLive(trx: Knex, id: string): Promise<boolean> {
    const row: unknown = await trx(CASES)
      .where({ id })
      .whereIn('state', LIVE_CASE_STATES)
      .forShare()
      .first('id');
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
    const changed = await query.update({
      state: to,
      assignee: null,
      assignee_sub: null,
      resubmission_sealed: null,
      closed_at: line.at,
      version: trx.raw('version + 1'),
    });
    if (changed > 0) await addHistory(trx, kase.id, { ...line, from: kase.state, to });
    return changed > 0;
  }

  /** The runs of a case held for review: the one under review and the resubmissions' that came back. */
  async heldRuns(trx: Knex, kase: ReviewCaseRecord): Promise<string[]> {
    const rows = (await trx('docverify.verification_runs')
      .select('id')
      .where({ status: 'review' })
      .where((q) =>
        q
          .where({ id: kase.runId })
          .orWhereIn(
            'session_id',
            trx('docverify.sessions').select('id').where({ review_case_id: kase.id }),
          ),
      )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /**
   * Whether a resubmission of the case was submitted and its run is still being verified (it
   * comes back to the case when it ends); read in `trx`, after its step locked the case.
   */
  async resubmissionVerifying(trx: Knex, kase: ReviewCaseRecord): Promise<boolean> {
    const row: unknown = await trx('docverify.verification_runs')
      .whereIn('status', ['processing', 'pending'])
      .whereIn(
        'session_id',
        trx('docverify.sessions').select('id').where({ review_case_id: kase.id }),
      )
      .first('id');
    return row !== undefined;
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
