// Reconnect timing: a doubling delay with a cap, and a pause that close() can cut short.
export class Backoff {
  private delay: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {
    this.delay = initialMs;
  }

  /** The pause before the next attempt; each call doubles the following one up to the cap. */
  next(): number {
    const current = this.delay;
    this.delay = Math.min(this.delay * 2, this.maxMs);
    return current;
  }

  reset(): void {
    this.delay = this.initialMs;
  }
}

export class Pause {
  private wake: (() => void) | undefined;

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** Ends the current wait at once (no-op when none). */
  interrupt(): void {
    this.wake?.();
    this.wake = undefined;
  }
}
