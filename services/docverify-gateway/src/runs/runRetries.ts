// When a verification run no verifier could serve tries again: its backoff, and the wait queue (one
// of fixed TTLs) a wait is spent in. No I/O.

export interface RetryPolicy {
  /** tries after the first (RUN_RETRIES) */
  retries: number;
  /** RUN_RETRY_FIRST_MS, doubling per retry */
  firstMs: number;
  /** RUN_RETRY_MAX_MS */
  maxMs: number;
}

/** ms to wait after the `starts`-th try (1-based): doubling, at least `hintMs`, at most maxMs. */
export function backoffMs(policy: RetryPolicy, starts: number, hintMs = 0): number {
  const doubled = policy.firstMs * 2 ** Math.min(30, Math.max(0, starts - 1));
  return Math.min(policy.maxMs, Math.max(doubled, hintMs));
}

/** A run that started `starts` times may not try again. */
export const retriesUsedUp = (policy: RetryPolicy, starts: number): boolean =>
  starts > policy.retries;

/**
 * The tier (TTL, ms) to spend `remainingMs` of a wait in: the longest that fits, so a wait ends
 * at most one shortest tier early; undefined when less than the shortest tier is left (go now).
 */
export function waitTier(tiers: readonly number[], remainingMs: number): number | undefined {
  return [...tiers].sort((a, b) => b - a).find((tier) => tier <= remainingMs);
}
