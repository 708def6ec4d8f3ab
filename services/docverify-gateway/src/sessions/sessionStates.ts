// The session state machine of contracts/http/sessions.ts as pure functions: which states a move
// may start from. Stores apply a move as `UPDATE ... WHERE status = ANY(sourcesOf(to))`, so two
// replicas, the page and the sweeps can never move one session twice or backwards.
import {
  isFinalSessionState,
  SESSION_TRANSITIONS,
  type SessionState,
  type SessionTimer,
} from '@idv/contracts';

/** Every state a session may enter `to` from; empty when nothing leads there. */
export function sourcesOf(to: SessionState): SessionState[] {
  const sources = SESSION_TRANSITIONS.filter((t) => t.to === to).flatMap((t) => t.from);
  return [...new Set(sources)];
}

export function canMove(from: SessionState, to: SessionState): boolean {
  return sourcesOf(to).includes(from);
}

export const isFinal = (state: SessionState): boolean => isFinalSessionState(state);

/** The states a timer ends, e.g. expireSessionInMin: every state in progress. */
export function statesEndedBy(timer: SessionTimer): SessionState[] {
  return SESSION_TRANSITIONS.filter((t) => t.timer === timer).flatMap((t) => [...t.from]);
}

/** The state a timer moves to. */
export function stateOfTimer(timer: SessionTimer): SessionState {
  const transition = SESSION_TRANSITIONS.find((t) => t.timer === timer);
  if (!transition) throw new Error(`no transition uses ${timer}`);
  return transition.to;
}
