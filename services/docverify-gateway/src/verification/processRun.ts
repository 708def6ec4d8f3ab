// One verification run, as a gateway replica takes it from the runs queue: prepare its request
// (sealed for async /verify, built from the accepted images for a session), then verifyAndRecord,
// retrying while no verifier can answer, until the run's deadline. Idempotent on the run id: a
// run already stored is left alone, and a re-run after a crash stores nothing twice.
import type { VerifyRequest } from '@idv/contracts';
import { InputError, UnavailableError } from '@idv/errors';
import type { Logger } from '@idv/observability';
import { checkVerifyRules } from '../domain/verifyRules.ts';
import { kindsOf, sessionRequest, sidesOf } from '../domain/sessionJourney.ts';
import type { RunRecord } from '../store/runs.ts';
import type { SessionImageStore } from '../store/sessionImages.ts';
import type {
  VerificationConfigRecord,
  VerificationConfigStore,
} from '../store/verificationConfigs.ts';
import { failRun } from './recordRun.ts';
import {
  VerificationAborted,
  verifyAndRecord,
  type VerifyAndRecordDeps,
} from './verifyAndRecord.ts';

export interface ProcessDeps extends VerifyAndRecordDeps {
  configs: VerificationConfigStore;
  images: SessionImageStore;
  logger: Logger;
  /** hands a run back to the queue when this gateway stops before finishing it */
  requeue: (runId: string) => Promise<unknown>;
}

type Prepared = { request: VerifyRequest } | { failure: string } | { ended: true };

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The session's request from its accepted images; the session moves to processing. */
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

/**
 * Runs `runId` to its end. When `signal` aborts (the gateway stops), the run goes back to the
 * queue unrecorded, for another replica.
 */
export async function processRun(
  deps: ProcessDeps,
  runId: string,
  signal?: AbortSignal,
): Promise<void> {
  const run = await deps.runs.start(runId);
  if (!run) return;
  const log = deps.logger.child({ runId, runKind: run.kind, starts: run.starts });
  const [config] = await deps.configs.find([run.communityId], run.configId);
  if (!config) return void (await failRun(deps, run, 'config_deleted'));
  const prepared = await prepare(deps, run, config);
  if ('failure' in prepared) return void (await failRun(deps, run, prepared.failure));
  if ('ended' in prepared) return void (await failRun(deps, run, 'session_ended'));
  for (;;) {
    if (signal?.aborted) return void (await deps.requeue(run.id));
    const left = run.deadline.getTime() - deps.clock.now().getTime();
    if (left <= 0) return void (await failRun(deps, run, 'no_verifier_in_time'));
    try {
      const target = { mode: 'run' as const, run };
      await verifyAndRecord(deps, prepared.request, config, Date.now() + left, target, signal);
      return;
    } catch (err) {
      if (err instanceof VerificationAborted) return void (await deps.requeue(run.id));
      if (err instanceof InputError) return void (await failRun(deps, run, 'invalid_request'));
      const unavailable = err instanceof UnavailableError;
      const waitMs = unavailable ? err.retryAfterSeconds * 1000 : 2000;
      log.warn({ reason: (err as Error).message, waitMs }, 'verification run retries');
      if (waitMs >= left)
        return void (await failRun(
          deps,
          run,
          unavailable ? 'no_verifier_in_time' : 'internal_error',
        ));
      await pause(Math.min(10_000, Math.max(250, waitMs)), signal);
    }
  }
}
