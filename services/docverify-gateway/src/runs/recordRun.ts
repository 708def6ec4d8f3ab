// How a verification run ends: completed with its result (or parked as pending while kinds await a
// follow-up, or held for a human review), or failed. The run's row, its session's move and every
// event they owe are written in one transaction, conditionally, so a run stored by another replica
// first is not stored again.
import type { EventEnvelope, RunStatus, VerificationKind, VerifyResult } from '@idv/contracts';
import type { EventOutbox, Knex } from '@idv/db';
import type { Clock } from '../shared/clock.ts';
import { runResultPlan } from '../retention/retentionPlan.ts';
import { sessionEvents, verificationCompleted } from '../sessions/events.ts';
import type { PendingKinds, RunRecord, RunStore } from './runStore.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import { verificationEvents } from '../verify/events.ts';
import { holdForReview } from '../review/reviewHold.ts';

export interface RecordDeps {
  runs: RunStore;
  sessions: SessionStore;
  outbox: EventOutbox<EventEnvelope>;
  clock: Clock;
  /** how long a run held for review waits for its decision (REVIEW_HOLD_HOURS); 720 h if absent */
  reviewHoldMs?: number;
}

/** What a run's config contributes when it is recorded (gone configs keep no result longer). */
export type RunConfig = Pick<VerificationConfigRecord, 'tenantId' | 'communityId' | 'settings'>;

/**
 * The kinds of `result` whose connector answered "not final yet" (certification status
 * 'pending'), with the follow-up reference the connector gave (`result.followUp`).
 */
export function pendingKindsOf(
  result: VerifyResult,
  now: Date,
  known: PendingKinds = {},
): PendingKinds | undefined {
  const pending = result.certifications.filter((c) => c.status === 'pending');
  if (pending.length === 0) return undefined;
  return Object.fromEntries(
    pending.map((c) => {
      const kind = c.kind as VerificationKind;
      const followUp = (c.result as { followUp?: unknown } | undefined)?.followUp;
      const fresh = {
        verifier: c.verifier,
        since: now.toISOString(),
        ...(followUp ? { followUp } : {}),
      };
      return [kind, known[kind] ?? fresh];
    }),
  ) as PendingKinds;
}

/** A resubmission's run whose case moved on without it (decided, expired, erased). */
export const RESUBMISSION_NOT_AWAITED = 'resubmission_not_awaited';

/**
 * Stores `result` for `run` (in one of `from`): 'pending' while kinds wait, 'review' when it waits
 * for a human review (review/reviewHold.ts), else 'completed'; 'failed' for a
 * resubmission's its case no longer awaits (its result was to be reviewed, so it never completes
 * unreviewed: its captures go, its session fails).
 */
export async function recordRunResult(
  deps: RecordDeps,
  run: RunRecord,
  config: RunConfig,
  result: VerifyResult,
  from: RunStatus[],
  pendingWas?: PendingKinds,
): Promise<'completed' | 'pending' | 'review' | 'failed' | undefined> {
  const now = deps.clock.now();
  const pending = pendingKindsOf(result, now, pendingWas);
  if (pending) {
    const outcome = { status: 'pending' as const, result, pending };
    // what the follow-up needs is the data it compares, not the images
    const dropImages = (trx: Knex.Transaction) => deps.runs.dropImages(run.id, trx);
    const parked = await deps.runs.finish(run.id, from, outcome, () => [], dropImages, pendingWas);
    return parked && 'pending';
  }
  const held = await holdForReview(deps, { run, config, result, from, pendingWas });
  if (held === 'not_awaited')
    return (await failRun(deps, run, RESUBMISSION_NOT_AWAITED, from, { dropImages: true }))
      ? 'failed'
      : undefined;
  if (held !== 'not_held') return held === 'held' ? 'review' : undefined;
  const done = await completeRun(deps, run, config, result, from, { pendingWas });
  if (!done) return undefined;
  void deps.outbox.flush(done);
  return 'completed';
}

/**
 * Completes `run` (in one of `from`) with `result`, its session and the events both owe, in
 * `trx` when given; the events to publish once committed, undefined when the run was not in `from`.
 */
export async function completeRun(
  deps: RecordDeps,
  run: RunRecord,
  config: RunConfig,
  result: VerifyResult,
  from: RunStatus[],
  options: { pendingWas?: PendingKinds | undefined; trx?: Knex.Transaction } = {},
): Promise<EventEnvelope[] | undefined> {
  const owed: EventEnvelope[] = [];
  const done = await deps.runs.finish(
    run.id,
    from,
    { status: 'completed', result, plan: runResultPlan(config.settings, deps.clock.now()) },
    (ended) => [
      ...verificationEvents(config, result),
      ...(ended.kind === 'async_verify' ? [verificationCompleted(ended, result)] : []),
    ],
    async (trx, ended) => {
      if (!ended.sessionId) return;
      const moved = await deps.sessions.move(
        ended.sessionId,
        'completed',
        {
          events: (_, after) =>
            sessionEvents(after, { verificationId: ended.id, status: result.status }),
        },
        trx,
      );
      owed.push(...(moved?.events ?? []));
    },
    options.pendingWas,
    options.trx,
  );
  return done && [...done.events, ...owed];
}

export interface FailOptions {
  /** the transaction to end it in */
  trx?: Knex.Transaction;
  /** its session's images go whatever the retention (nobody may review them any more) */
  dropImages?: boolean;
}

/**
 * Ends `run` (in one of `from`) without a result, in `trx` when given: its session fails, an async
 * caller is told by event. The events to publish once committed; undefined when not in `from`.
 */
export async function endRunFailed(
  deps: RecordDeps,
  run: RunRecord,
  reason: string,
  from: RunStatus[],
  { trx, dropImages = false }: FailOptions = {},
): Promise<EventEnvelope[] | undefined> {
  const owed: EventEnvelope[] = [];
  const done = await deps.runs.finish(
    run.id,
    from,
    { status: 'failed', failure: reason },
    (ended) => (ended.kind === 'async_verify' ? [verificationCompleted(ended, undefined)] : []),
    async (inner, ended) => {
      if (!ended.sessionId) return;
      const moved = await deps.sessions.move(
        ended.sessionId,
        'failed',
        {
          patch: { failure: reason },
          events: (_, after) => sessionEvents(after, { verificationId: ended.id, reason }),
          ...(dropImages ? { dropImages } : {}),
        },
        inner,
      );
      owed.push(...(moved?.events ?? []));
    },
    undefined,
    trx,
  );
  return done && [...done.events, ...owed];
}

/** Ends `run` without a result: its session fails, an async caller is told by event. */
export async function failRun(
  deps: RecordDeps,
  run: RunRecord,
  reason: string,
  from: RunStatus[] = ['processing'],
  options: Omit<FailOptions, 'trx'> = {},
): Promise<boolean> {
  const events = await endRunFailed(deps, run, reason, from, options);
  if (!events) return false;
  void deps.outbox.flush(events);
  return true;
}
