// The one verification use case: run the request through the config (runVerification) and store
// the result with the events it owes. POST /verify, async runs and sessions all come through here.
// A sync /verify whose answer is not final for its caller (a connector's pending answer, or a
// result its config has a human review) becomes a run under its verificationId, as an async one.
import {
  withoutDocumentImages,
  type EventEnvelope,
  type VerifyRequest,
  type VerifyResult,
} from '@idv/contracts';
import { retentionPlan } from '../retention/retentionPlan.ts';
import { reviewApplies, reviewOf } from '../review/reviewPolicy.ts';
import { asyncVerifyRun, type RunRecord } from '../runs/runStore.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import type { VerificationStore } from './verificationStore.ts';
import { verificationEvents } from './events.ts';
import { recordRunResult, type RecordDeps } from '../runs/recordRun.ts';
import { runVerification, type RunDeps } from './runVerification.ts';

export interface VerifyAndRecordDeps extends RunDeps, RecordDeps {
  verifications: VerificationStore;
}

/**
 * sync: the caller (its licence the only reader of what is kept) waits for the answer; run: a
 * verification run stored under its own id.
 */
export type VerifyTarget =
  { mode: 'sync'; ownerLicenceId: string } | { mode: 'run'; run: RunRecord };

export interface Recorded {
  result: VerifyResult;
  /** events still to publish right away (the outbox has them already) */
  events: EventEnvelope[];
}

/** The gateway stopped waiting for the connectors (it shuts down): nothing was recorded. */
export class VerificationAborted extends Error {
  override readonly name = 'VerificationAborted';
}

function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new VerificationAborted('the gateway is shutting down'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A run's deadline for its connectors, here already answered: only a bound for the sweep. */
const PARKED_DEADLINE_MS = 300_000;

/**
 * A sync /verify's answer becomes a run under its verificationId, holding `kept` of its request:
 * GET /verification/{id} follows it, and it ends with its events (E_IDV_VERIFICATION_COMPLETED and
 * the E_IDV_*_VALIDATE of the final result) as an async run's: parked as pending until its
 * follow-up, or held for review until the decision (recordRunResult decides which).
 */
async function parkAsRun(
  deps: VerifyAndRecordDeps,
  request: VerifyRequest,
  kept: unknown,
  config: VerificationConfigRecord,
  result: VerifyResult,
  ownerLicenceId: string,
): Promise<void> {
  const now = deps.clock.now();
  const id = result.verificationId;
  const deadline = new Date(now.getTime() + PARKED_DEADLINE_MS);
  await deps.runs.create(asyncVerifyRun(id, config, request.dvcID, deadline, ownerLicenceId), kept);
  const run = await deps.runs.start(id);
  if (run) await recordRunResult(deps, run, config, result, ['processing']);
}

/**
 * What the caller of a sync /verify held for review reads: pending, none of the result the review
 * decides on (an async caller reads no more: {verificationId, status: pending}).
 */
const awaitingReview = (result: VerifyResult): VerifyResult => ({
  ...result,
  status: 'pending',
  certifications: [],
});

export async function verifyAndRecord(
  deps: VerifyAndRecordDeps,
  request: VerifyRequest,
  config: VerificationConfigRecord,
  deadline: number,
  target: VerifyTarget,
  signal?: AbortSignal,
): Promise<Recorded> {
  const runId = target.mode === 'run' ? target.run.id : undefined;
  const result = await unlessAborted(
    runVerification(deps, request, config, deadline, runId),
    signal,
  );
  if (target.mode === 'run') {
    await recordRunResult(deps, target.run, config, result, ['processing']);
    return { result, events: [] };
  }
  if (result.status === 'pending') {
    // the follow-up needs only what data comparison reads (names, dob): never the images
    const compares = (config.settings.dataComparisonAttributes ?? []).length > 0;
    const kept = compares ? withoutDocumentImages(request) : undefined;
    await parkAsRun(deps, request, kept, config, result, target.ownerLicenceId);
    return { result, events: [] };
  }
  if (reviewApplies(reviewOf(config.settings), result)) {
    // the reviewer weighs the request's data and images, as an async run's (kept sealed)
    await parkAsRun(deps, request, request, config, result, target.ownerLicenceId);
    return { result: awaitingReview(result), events: [] };
  }
  // the result (if kept) and its events are stored before the caller's answer
  const events = verificationEvents(config, result);
  await deps.verifications.keep(
    config.communityId,
    result,
    retentionPlan(config.settings, deps.clock.now()),
    events,
    target.ownerLicenceId,
  );
  return { result, events };
}
