// The two session timers, named by their well-known constants: expireSessionInMin after creation
// (any state in progress) and abandonSessionInMin after the last page activity (opened,
// capturing). The sweeps of every replica and any access to a session apply them the same way:
// a conditional move that re-checks the time under the row lock, so none applies twice.
import type { SessionTimer } from '@idv/contracts';
import { WELL_KNOWN } from '../wellKnown/wellKnown.ts';
import { isFinal, stateOfTimer } from './sessionStates.ts';
import type { SessionRecord } from './sessionRecord.ts';
import type { Moved } from './sessionStore.ts';
import type { SessionDeps } from './deps.ts';
import { sessionEvents } from './events.ts';

export const TIMER_MS: Record<SessionTimer, number> = {
  expireSessionInMin: WELL_KNOWN.expireSessionInMin * 60_000,
  abandonSessionInMin: WELL_KNOWN.abandonSessionInMin * 60_000,
};

const COLUMN = {
  expireSessionInMin: 'expires_at',
  abandonSessionInMin: 'last_activity_at',
} as const;

/** The latest value of the timer's column at which the session is due now. */
export function dueBefore(timer: SessionTimer, now: Date): Date {
  return timer === 'expireSessionInMin' ? now : new Date(now.getTime() - TIMER_MS[timer]);
}

type TimerDeps = Pick<SessionDeps, 'sessions' | 'outbox' | 'clock'>;

/** Ends session `id` by `timer` if it is due; undefined when not (or another got there first). */
export async function applyTimer(
  deps: TimerDeps,
  id: string,
  timer: SessionTimer,
  skipLocked = false,
): Promise<Moved | undefined> {
  const moved = await deps.sessions.move(id, stateOfTimer(timer), {
    due: { column: COLUMN[timer], atOrBefore: dueBefore(timer, deps.clock.now()) },
    skipLocked,
    events: (before, after) => sessionEvents(after, { from: before.status }),
  });
  if (moved) void deps.outbox.flush(moved.events);
  return moved;
}

/** The session as it stands once any due timer has applied (a sweep may not have run yet). */
export async function withTimers(deps: TimerDeps, session: SessionRecord): Promise<SessionRecord> {
  if (isFinal(session.status)) return session;
  const now = deps.clock.now();
  const idle = session.lastActivityAt ?? session.openedAt;
  const timer: SessionTimer | undefined =
    session.expiresAt <= now
      ? 'expireSessionInMin'
      : idle && idle <= dueBefore('abandonSessionInMin', now)
        ? 'abandonSessionInMin'
        : undefined;
  if (!timer) return session;
  const moved = await applyTimer(deps, session.id, timer);
  return moved?.after ?? (await deps.sessions.byId(session.id, 'all')) ?? session;
}
