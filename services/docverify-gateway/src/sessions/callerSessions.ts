// The caller's side of a session after create: its result (polled until final) and cancelling it.
// A session of another community, or named with another config, is not found: no existence oracle.
import type { SessionRef, SessionView, VerifyResult } from '@idv/contracts';
import { ConflictError, NotFoundError } from '@idv/errors';
import { isFinal } from '../domain/sessionStates.ts';
import type { SessionRecord } from '../store/sessionRecord.ts';
import type { SessionDeps } from './deps.ts';
import { sessionEvents } from './events.ts';
import { sessionView } from './sessionView.ts';
import { withTimers } from './timers.ts';

async function ownSession(
  deps: SessionDeps,
  scope: string[] | 'all',
  ref: SessionRef,
): Promise<SessionRecord> {
  const session = await deps.sessions.byId(ref.sessionId, scope);
  if (!session || (session.dvcID !== ref.dvcID && session.configId !== ref.dvcID))
    throw new NotFoundError(`session ${ref.sessionId} not found`);
  return withTimers(deps, session);
}

/**
 * The session as it stands; once COMPLETED, with the run's result while it is kept (a result and
 * images kept "until retrieved" go with the first read of a final session).
 */
export async function sessionResult(
  deps: SessionDeps,
  scope: string[] | 'all',
  ref: SessionRef,
): Promise<SessionView> {
  const session = await ownSession(deps, scope, ref);
  if (!isFinal(session.status)) return sessionView(session);
  let result: VerifyResult | undefined;
  if (session.status === 'completed' && session.runId)
    result = await deps.runs.retrieve(session.runId);
  await deps.images.retrieved(session.id);
  return sessionView(session, result);
}

export async function cancelSession(
  deps: SessionDeps,
  scope: string[] | 'all',
  ref: SessionRef,
): Promise<SessionView> {
  const session = await ownSession(deps, scope, ref);
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
