// A run whose result waits for a human review: instead of completing, it is held (status
// 'review', its result sealed as a completed one's, an async run's request kept, a session's images
// kept with it), and its case opens in the same transaction with E_IDV_REVIEW_OPENED. A
// resubmission's run is always held: it brings its case back to open, reviewing it. One whose case
// no longer waits for it (decided without it, expired, erased) is never completed unreviewed: it is
// 'not_awaited', and recordRun.ts fails it (resubmission_not_awaited), its captures dropped.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope, RunStatus, VerifyResult } from '@idv/contracts';
import { DEFAULT_REVIEW_HOLD_MS, reviewApplies, reviewOf } from './reviewPolicy.ts';
import { reviewOpened } from './events.ts';
import { openCase, reopenCase } from './reviewCaseOpening.ts';
import type { PendingKinds, RunRecord } from '../runs/runStore.ts';
import type { RecordDeps, RunConfig } from '../runs/recordRun.ts';

/** The resubmission's case no longer waits for it: the hold is rolled back. */
class CaseNotAwaiting extends Error {}

/** What recordRunResult was given: a run's result to store, from one of `from`. */
export interface Recording {
  run: RunRecord;
  config: RunConfig;
  result: VerifyResult;
  from: RunStatus[];
  pendingWas?: PendingKinds | undefined;
}

/**
 * 'held' (case opened or reopened), 'not_held' (no review applies), 'not_awaited' (a
 * resubmission's run its case no longer waits for) or 'lost' (stored elsewhere).
 */
export async function holdForReview(
  deps: RecordDeps,
  { run, config, result, from, pendingWas }: Recording,
): Promise<'held' | 'not_held' | 'not_awaited' | 'lost'> {
  const session = run.sessionId ? await deps.sessions.byId(run.sessionId, 'all') : undefined;
  const resubmissionOf = session?.reviewCaseId ?? null;
  const review = reviewOf(config.settings);
  if (!resubmissionOf && !reviewApplies(review, result)) return 'not_held';
  const now = deps.clock.now();
  const holdUntil = new Date(now.getTime() + (deps.reviewHoldMs ?? DEFAULT_REVIEW_HOLD_MS));
  const owed: EventEnvelope[] = [];
  try {
    const held = await deps.runs.finish(
      run.id,
      from,
      { status: 'review', result },
      () => owed,
      async (trx, heldRun) => {
        const kase = resubmissionOf
          ? await reopenCase(trx, resubmissionOf, heldRun, result, now)
          : await openCase(trx, {
              id: randomUUID(),
              run: heldRun,
              review,
              result,
              openedAt: now,
              holdUntil,
            });
        if (!kase) throw new CaseNotAwaiting();
        owed.push(reviewOpened(kase, resubmissionOf !== null));
      },
      pendingWas,
    );
    if (!held) return 'lost';
    void deps.outbox.flush(held.events);
    return 'held';
  } catch (err) {
    if (err instanceof CaseNotAwaiting) return 'not_awaited';
    throw err;
  }
}
