// The caller's side of a session after create: its result (polled until final) and cancelling it.
// A session of another community, named with another config, or created by another licence of
// the community is not found: no existence oracle. A system licence sees its state only.
import type { SessionRef, SessionView, VerifyResult } from '@idv/contracts';
import { ConflictError, NotFoundError } from '@idv/errors';
import { resultAccess, type ResultAccess, type ResultCaller } from '../verify/resultOwner.ts';
import { isFinal } from './sessionStates.ts';
import type { SessionRecord } from './sessionRecord.ts';
import type { SessionDeps } from './deps.ts';
import { sessionEvents } from './events.ts';
import { sessionView } from './sessionView.ts';
import { withTimers } from './timers.ts';

async function ownSession(
  deps: SessionDeps,
  scope: string[] | 'all',
  caller: ResultCaller,
  ref: SessionRef,
): Promise<{ session: SessionRecord; access: Exclude<ResultAccess, 'none'> }> {
  const session = await deps.sessions.byId(ref.sessionId, scope);
  const access = session ? resultAccess(session.ownerLicenceId, caller) : 'none';
  if (
    !session ||
    access === 'none' ||
    (session.dvcID !== ref.dvcID && session.configId !== ref.dvcID)
  )
    throw new NotFoundError(`session ${ref.sessionId} not found`);
  return { session: await withTimers(deps, session), access };
}

/**
 * What the owner's read of a final session takes: its run's result while kept (a result kept
 * "until retrieved" goes with this read) and the session's images kept until then, in one
 * transaction. Every read path of a session's result comes through here.
 */
export async function retrieveSessionResult(
  deps: Pick<SessionDeps, 'runs' | 'images'>,
  sessionId: string,
  completedRunId: string | undefined,
): Promise<VerifyResult | undefined> {
  if (!completedRunId) return void (await deps.images.retrieved(sessionId));
  return deps.runs.retrieve(completedRunId, (trx) => deps.images.retrieved(sessionId, trx));
}

/**
 * The session as it stands; once COMPLETED, with the run's result while it is kept, for the
 * licence that created it only (a system licence gets the state and consumes nothing). While a
 * reviewer waits for the person to capture again, its owner reads the new session's link.
 */
export async function sessionResult(
  deps: SessionDeps,
  scope: string[] | 'all',
  caller: ResultCaller,
  ref: SessionRef,
): Promise<SessionView> {
  const { session, access } = await ownSession(deps, scope, caller, ref);
  if (!isFinal(session.status)) {
    const awaited =
      access === 'owner' && session.runId
        ? await deps.reviewSealed.awaitedResubmission(session.runId)
        : undefined;
    return { ...sessionView(session), ...(awaited ? { resubmission: awaited } : {}) };
  }
  if (access === 'observer') return sessionView(session);
  const completedRun = session.status === 'completed' ? (session.runId ?? undefined) : undefined;
  return sessionView(session, await retrieveSessionResult(deps, session.id, completedRun));
}

/** Cancels a session not yet submitted: its creator, or a system licence (an operator). */
export async function cancelSession(
  deps: SessionDeps,
  scope: string[] | 'all',
  caller: ResultCaller,
  ref: SessionRef,
): Promise<SessionView> {
  const { session } = await ownSession(deps, scope, caller, ref);
  const moved = await deps.sessions.move(session.id, 'cancelled', {
    events: (before, after) => sessionEvents(after, { from: before.status }),
  });
  if (!moved) {
    const now = (await deps.sessions.byId(session.id, 'all')) ?? session;
    throw new ConflictError(
      isFinal(now.status)
        ? `session ${session.id} has already ended (${now.status})`
        : `session ${session.id} is ${now.status}: it can no longer be cancelled`,
    );
  }
  void deps.outbox.flush(moved.events);
  return sessionView(moved.after);
}
