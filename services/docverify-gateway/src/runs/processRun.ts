// One try of a verification run, as a gateway replica takes it from the runs queue: prepare its
// request (sealed for async /verify, built from the accepted images for a session), then
// verifyAndRecord; when no verifier can answer now, it says when to try again (runSlots parks it
// meanwhile, its slot free). Idempotent on the run id: a run already stored is left alone, and a
// re-run after a crash stores nothing twice.
import type { VerifyRequest } from '@idv/contracts';
import { InputError, UnavailableError } from '@idv/errors';
import type { Logger } from '@idv/observability';
import { backoffMs, retriesUsedUp, type RetryPolicy } from './runRetries.ts';
import { checkVerifyRules } from '../verify/verifyRules.ts';
import { kindsOf, sessionRequest, sidesOf } from '../sessions/sessionJourney.ts';
import { resubmissionRequest } from '../review/resubmissionRun.ts';
import type { ReviewCaseStore } from '../review/reviewCaseStore.ts';
import type { RunRecord } from './runStore.ts';
import type { SessionImageStore } from '../sessions/sessionImageStore.ts';
import type {
  VerificationConfigRecord,
  VerificationConfigStore,
} from '../verificationConfigs/verificationConfigStore.ts';
import { failRun, RESUBMISSION_NOT_AWAITED } from './recordRun.ts';
import {
  VerificationAborted,
  verifyAndRecord,
  type VerifyAndRecordDeps,
} from '../verify/verifyAndRecord.ts';

export interface ProcessDeps extends VerifyAndRecordDeps {
  configs: VerificationConfigStore;
  images: SessionImageStore;
  reviews: ReviewCaseStore;
  logger: Logger;
  /** hands a run back to the queue when this gateway stops before finishing it */
  requeue: (runId: string, communityId: string) => Promise<unknown>;
  /** RUN_RETRIES and the backoff between tries */
  retries: RetryPolicy;
  /** RUN_ATTEMPT_MS: the longest one try waits for its connectors */
  attemptMs: number;
}

export type Prepared = { request: VerifyRequest } | { failure: string } | { ended: true };

/**
 * The session's request from its accepted images (a resubmission's: from its case's images);
 * the session moves to processing.
 */
async function prepareSession(
  deps: ProcessDeps,
  run: RunRecord,
  config: VerificationConfigRecord,
): Promise<Prepared> {
  const session = run.sessionId ? await deps.sessions.byId(run.sessionId, 'all') : undefined;
  if (!session || !session.documentType) return { failure: 'session_gone' };
  // a re-run after a crash finds it processing already
  if (session.status === 'submitted') await deps.sessions.move(session.id, 'processing');
  else if (session.status !== 'processing') return { ended: true };
  if (session.reviewCaseId) return resubmissionRequest(deps, session, config);
  const kinds = kindsOf(config.arrays, session.documentType, session.journeyType);
  if (kinds.length === 0) return { failure: 'journey_not_configured' };
  const images = await deps.images.opened(session.id);
  const sides = sidesOf(session.documentType, session.journeyType);
  if (sides.some((side) => !images[side])) return { failure: 'capture_incomplete' };
  const request = sessionRequest({
    sessionId: session.id,
    dvcID: session.dvcID,
    documentType: session.documentType,
    kinds,
    images,
  });
  return { request };
}

async function prepare(
  deps: ProcessDeps,
  run: RunRecord,
  config: VerificationConfigRecord,
): Promise<Prepared> {
  const prepared =
    run.kind === 'session'
      ? await prepareSession(deps, run, config)
      : { request: (await deps.runs.request(run.id)) as VerifyRequest };
  if (!('request' in prepared)) return prepared;
  if (!prepared.request || checkVerifyRules(prepared.request).length > 0)
    return { failure: 'invalid_request' };
  return prepared;
}

/** How one try of a run ended: the run is over (stored, failed or handed back), or it tries again. */
export type RunTry = { over: true } | { retryAt: number };
const OVER: RunTry = { over: true };

/**
 * One try of `runId`. A try no verifier could serve (unavailable, busy, breaker open, no answer)
 * ends with when to try again, within the run's retries and deadline (counted from its creation),
 * else the run fails. When `signal` aborts (the gateway stops), the run goes back to the queue
 * unrecorded, for another replica.
 */
export async function processRun(
  deps: ProcessDeps,
  runId: string,
  signal?: AbortSignal,
): Promise<RunTry> {
  const run = await deps.runs.start(runId);
  if (!run) return OVER;
  const log = deps.logger.child({ runId, runKind: run.kind, starts: run.starts });
  const fail = async (reason: string) => {
    // a resubmission's captures its case no longer awaits are nobody's to review: they go
    const dropImages = reason === RESUBMISSION_NOT_AWAITED;
    await failRun(deps, run, reason, ['processing'], { dropImages });
    return OVER;
  };
  const [config] = await deps.configs.find([run.communityId], run.configId);
  if (!config) return fail('config_deleted');
  const prepared = await prepare(deps, run, config);
  if ('failure' in prepared) return fail(prepared.failure);
  if ('ended' in prepared) return fail('session_ended');
  if (signal?.aborted) return (await deps.requeue(run.id, run.communityId), OVER);
  const left = run.deadline.getTime() - deps.clock.now().getTime();
  if (left <= 0) return fail('no_verifier_in_time');
  try {
    const target = { mode: 'run' as const, run };
    const until = Date.now() + Math.min(left, deps.attemptMs);
    await verifyAndRecord(deps, prepared.request, config, until, target, signal);
    return OVER;
  } catch (err) {
    if (err instanceof VerificationAborted)
      return (await deps.requeue(run.id, run.communityId), OVER);
    if (err instanceof InputError) return fail('invalid_request');
    const unavailable = err instanceof UnavailableError;
    const hintMs = unavailable ? err.retryAfterSeconds * 1000 : 0;
    const waitMs = backoffMs(deps.retries, run.starts, hintMs);
    const reason = unavailable ? 'no_verifier_in_time' : 'internal_error';
    log.warn({ reason: (err as Error).message, waitMs }, 'verification run tries again later');
    const leftNow = run.deadline.getTime() - deps.clock.now().getTime();
    if (retriesUsedUp(deps.retries, run.starts) || waitMs >= leftNow) return fail(reason);
    return { retryAt: Date.now() + waitMs };
  }
}
