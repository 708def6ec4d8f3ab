// The states a verification session moves through, with no schema library behind them: the
// operator console's web app lists them from here (contracts/http/sessions.ts re-exports them).

/** A session's life; `created` .. `processing` are in progress, the last six are final. */
export const SESSION_STATES = [
  'created',
  'opened',
  'capturing',
  'submitted',
  'processing',
  'completed',
  'failed',
  'expired',
  'abandoned',
  'cancelled',
  'declined',
] as const;
export type SessionState = (typeof SESSION_STATES)[number];
