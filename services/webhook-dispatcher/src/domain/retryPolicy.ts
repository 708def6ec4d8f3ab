// What an attempt's result means: success per successCodes, retry per retryCodes (and transport
// errors) within retryCount and ttl, with exponential backoff, jitter and Retry-After.
export interface AttemptResult {
  /** null when no response arrived (refused, timed out, blocked) */
  statusCode: number | null;
  /** Retry-After of the response, ms from now */
  retryAfterMs?: number | undefined;
}

export interface RetryRules {
  successCodes: number[];
  retryCodes: number[];
  retryCount: number;
}

export type Verdict =
  { outcome: 'succeeded' } | { outcome: 'retry'; at: Date } | { outcome: 'failed'; reason: string };

export interface PolicyContext {
  /** attempts in this round including the one just made (1 = the first) */
  attempt: number;
  now: number;
  expiresAt: Date | null;
  retryBaseMs: number;
  /** 0..1; tests pass 0.5 for the midpoint */
  random?: () => number;
}

/** Longest Retry-After honoured; a receiver cannot park a delivery for days. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

export function backoffMs(retry: number, baseMs: number, random: () => number): number {
  const plain = baseMs * 6 ** (retry - 1);
  return Math.round(plain * (0.8 + 0.4 * random()));
}

export function judgeAttempt(
  result: AttemptResult,
  rules: RetryRules,
  ctx: PolicyContext,
): Verdict {
  const code = result.statusCode;
  if (code !== null && rules.successCodes.includes(code)) return { outcome: 'succeeded' };
  const retryable = code === null || rules.retryCodes.includes(code);
  if (!retryable)
    return { outcome: 'failed', reason: `status ${code} is neither success nor retry` };
  if (ctx.attempt > rules.retryCount) return { outcome: 'failed', reason: 'retries exhausted' };
  const wait = Math.max(
    backoffMs(ctx.attempt, ctx.retryBaseMs, ctx.random ?? Math.random),
    Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS),
  );
  const at = new Date(ctx.now + wait);
  if (ctx.expiresAt && at > ctx.expiresAt)
    return { outcome: 'failed', reason: 'the next retry would fall after the ttl' };
  return { outcome: 'retry', at };
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
