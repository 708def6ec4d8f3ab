// A case opens in the transaction that holds its run for review, or a resubmission's run brings it
// back to open: the row with the run's checks (no personal data), the history's line, and the held
// session's expiry pushed past the case's hold.
import type { ReviewSettings, VerifyResult } from '@idv/contracts';
import type { Knex } from '@idv/db';
import { resultStatusOf, reviewChecks } from './reviewChecks.ts';
import { toCase, type ReviewCaseRecord, type ReviewCaseRow } from './reviewCaseRecord.ts';
import { addHistory } from './reviewCaseStore.ts';
import type { RunRecord } from '../runs/runRecord.ts';

const CASES = 'docverify.review_cases';

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
  await addHistory(trx, c.id, {
    at: c.openedAt,
    actor: 'system',
    action: 'opened',
    from: null,
    to: 'open',
  });
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
  await addHistory(trx, caseId, {
    at: now,
    actor: 'system',
    action: 'resubmission_received',
    from: 'resubmission_requested',
    to: 'open',
  });
  await holdSession(trx, run.sessionId, row.hold_until);
  return toCase(row);
}
