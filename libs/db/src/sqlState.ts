// The SQLSTATE codes the platform acts on (PostgreSQL's appendix A), by name, and the one test of
// a database error's code. A store turns them into what its callers understand (a ConflictError,
// "the row is gone", a retried transaction); nothing above the stores reads a code.

export const SQLSTATE = {
  /** a unique index refused the row */
  uniqueViolation: '23505',
  /** the row points at one that is gone (deleted meanwhile) */
  foreignKeyViolation: '23503',
  /** PostgreSQL broke a deadlock by failing this transaction: trying it again is safe */
  deadlockDetected: '40P01',
} as const;

export type SqlStateName = keyof typeof SQLSTATE;

/** Whether `err` is a database error of SQLSTATE `name`. */
export function hasSqlState(err: unknown, name: SqlStateName): boolean {
  return (err as { code?: unknown } | undefined)?.code === SQLSTATE[name];
}

/**
 * Runs `transaction` (all of one transaction, from its start) again when PostgreSQL chose it as a
 * deadlock's victim, at most `tries` times in all; any other error, or the last deadlock, goes on.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (!hasSqlState(err, 'deadlockDetected') || attempt >= tries) throw err;
    }
  }
}
