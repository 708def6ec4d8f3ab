// Waiting for what a test can observe instead of sleeping for a time it hopes is enough: a check
// polled until it holds, failing at a deadline with the name of what never came.

export interface WaitOptions {
  /** how long the check may take to hold (default 20 s: CI machines are noisy) */
  timeoutMs?: number;
  /** the pause between two checks (default 50 ms) */
  intervalMs?: number;
}

/**
 * Polls `check` until it gives a value other than undefined or false and returns that value;
 * rejects after `timeoutMs` with "timed out after N ms waiting for <what>". A check that throws
 * ends the wait with its error.
 */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions | number = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 50 } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
