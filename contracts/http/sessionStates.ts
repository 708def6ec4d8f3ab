// The states a verification session moves through, with no schema library behind them: the
// operator console's and the capture page's web apps take them from here
// (contracts/http/sessions.ts re-exports them with the transitions between them).

/** The states of a session still in progress. */
export const IN_PROGRESS_SESSION_STATES = [
  'created',
  'opened',
  'capturing',
  'submitted',
  'processing',
] as const;

/** The states a session ends in; nothing leaves them. */
export const FINAL_SESSION_STATES = [
  'completed',
  'failed',
  'expired',
  'abandoned',
  'cancelled',
  'declined',
] as const;
export type FinalSessionState = (typeof FINAL_SESSION_STATES)[number];

/** A session's life, in progress first, then final. */
export const SESSION_STATES = [...IN_PROGRESS_SESSION_STATES, ...FINAL_SESSION_STATES] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const isFinalSessionState = (state: SessionState): state is FinalSessionState =>
  (FINAL_SESSION_STATES as readonly SessionState[]).includes(state);
