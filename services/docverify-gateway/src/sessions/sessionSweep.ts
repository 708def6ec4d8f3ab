// Every replica's sweep of sessions and runs, every SESSION_SWEEP_MS: review cases past their hold,
// expiry and abandonment (each session moved by its own conditional update, rows another replica
// holds skipped), images and run results past retention, runs whose work message never reached the
// broker, and runs nobody finished (a gateway died and the message went to the dead letters) failed
// after their deadline. A run held for review is none of these: only its case's hold ends it.
import type { SessionTimer } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import { MAX_RETENTION_S } from '../retention/retentionPlan.ts';
import { statesEndedBy } from './sessionStates.ts';
import type { ReviewDeps } from '../review/deps.ts';
import { expireHeldCases } from '../review/holdExpiry.ts';
import { applyTimer, dueBefore } from './timers.ts';
import { failRun } from '../runs/recordRun.ts';

export type SweepDeps = ReviewDeps;

/** How many rows of each kind one pass takes on. */
const BATCH = 200;
/** A run still processing this long after its deadline has nobody working on it. */
export const OVERDUE_GRACE_MS = 60_000;
/** A run not confirmed by the broker this long after it was stored is sent again. */
const DISPATCH_GRACE_MS = 5_000;

const COLUMN = {
  expireSessionInMin: 'expires_at',
  abandonSessionInMin: 'last_activity_at',
} as const;

async function endDue(deps: SweepDeps, timer: SessionTimer): Promise<number> {
  const ids = await deps.sessions.due(
    COLUMN[timer],
    statesEndedBy(timer),
    dueBefore(timer, deps.clock.now()),
    BATCH,
  );
  let ended = 0;
  for (const id of ids) if (await applyTimer(deps, id, timer, true)) ended += 1;
  return ended;
}

export interface SweepCounts {
  /** review cases past their hold, their runs failed */
  reviewsExpired: number;
  expired: number;
  abandoned: number;
  images: number;
  results: number;
  redispatched: number;
  overdue: number;
}

export async function sweepOnce(deps: SweepDeps): Promise<SweepCounts> {
  const now = deps.clock.now();
  // before the session timers: a held session's expiry is its case's hold (reviewCaseStore.ts)
  const reviewsExpired = await expireHeldCases(deps, BATCH);
  const expired = await endDue(deps, 'expireSessionInMin');
  const abandoned = await endDue(deps, 'abandonSessionInMin');
  const images = await deps.images.sweep(now);
  const results = await deps.runs.sweepResults(now);
  let redispatched = 0;
  const lost = await deps.runs.undispatched(new Date(now.getTime() - DISPATCH_GRACE_MS), BATCH);
  for (const id of lost) if (await deps.runQueue.enqueue(id)) redispatched += 1;
  let overdue = 0;
  const pendingBefore = new Date(now.getTime() - MAX_RETENTION_S * 1000);
  for (const run of await deps.runs.overdue(now, OVERDUE_GRACE_MS, pendingBefore, BATCH)) {
    const reason = run.status === 'pending' ? 'pending_not_followed_up' : 'no_verifier_in_time';
    if (await failRun(deps, run, reason, [run.status])) overdue += 1;
  }
  return { reviewsExpired, expired, abandoned, images, results, redispatched, overdue };
}

export function startSessionSweep(
  deps: SweepDeps,
  everyMs: number,
  logger: Logger,
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return; // a long pass is not overlapped by the next
    running = sweepOnce(deps)
      .then((counts) => {
        if (Object.values(counts).some((n) => n > 0)) logger.info(counts, 'sessions swept');
      })
      .catch((err: unknown) =>
        logger.warn({ reason: (err as Error).message }, 'session sweep failed; retrying'),
      )
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
