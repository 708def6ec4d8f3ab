// Group commit: calls made while earlier statements are in flight travel as one statement.

interface Waiting<I, O> {
  input: I;
  resolve(output: O): void;
  reject(err: unknown): void;
}

export interface BatcherOptions {
  /** most calls in one statement, which keeps it under the bind-parameter limit (default 100) */
  maxBatch?: number;
  /**
   * A call made while no statement runs goes at once instead of waiting for the end of the event
   * loop's turn (default false): for writes on a path whose requests would otherwise move in
   * lock-step (see Batcher).
   */
  sendAtOnce?: boolean;
  /**
   * For work no request waits on (clearing published events from an outbox): a statement leaves
   * at most once per intervalMs with everything submitted meanwhile, instead of one per turn.
   * Default 0 (off).
   */
  intervalMs?: number;
}

/**
 * A statement that failed because of one row (bad data, integrity violation, deadlock) is run
 * again call by call, so one bad row cannot fail the rest; an outage (no SQLSTATE, or the
 * connection classes) is not: it fails every call of the batch at once.
 */
function rowSpecific(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|40)[0-9A-Z]{3}$/.test(code);
}

/**
 * A lone call goes out once the event loop has handled the I/O already waiting (setImmediate:
 * no timer, so no added latency when idle), so requests that arrived together share a statement
 * (introspection's three parallel lookups: one statement); under load, calls queue behind the
 * running statement and leave together, one statement at a time. Fewer statements cost less CPU,
 * which is what a CPU-bound path such as /verify wants. `sendAtOnce` sends a call made while no
 * statement runs at once instead: for a path whose concurrent requests would otherwise all wait
 * on the same write and answer together, in lock-step (the oauth token writes; measurements in
 * bench/results/history.md). Every call is answered by a statement sent after it was made, so
 * nothing is served from an earlier read, and a write resolves only once it is in the database.
 */
export class Batcher<I, O = void> {
  private queue: Waiting<I, O>[] = [];
  private running = false;
  /** the statement running, until its callers are answered */
  private current: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly maxBatch: number;
  private readonly sendAtOnce: boolean;
  private readonly intervalMs: number;

  constructor(
    /** one statement for the inputs, answering one output per input, in order (or nothing) */
    private readonly run: (inputs: I[]) => Promise<O[] | void>,
    options: BatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.sendAtOnce = options.sendAtOnce ?? false;
    this.intervalMs = options.intervalMs ?? 0;
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.sendAtOnce) this.pump();
      else if (this.intervalMs > 0) this.later();
      else if (this.queue.length === 1) setImmediate(() => this.pump());
    });
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    this.current = this.settle(this.queue.splice(0, this.maxBatch)).finally(() => {
      this.running = false;
      if (this.intervalMs > 0) this.later();
      else this.pump();
    });
  }

  /** Sends what waits (an interval's calls included) now; resolves once every call is answered. */
  async drain(): Promise<void> {
    for (;;) {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.running) await this.current;
      else if (this.queue.length > 0) this.pump();
      else return;
    }
  }

  /** The next statement of an interval batcher, intervalMs from now. */
  private later(): void {
    if (this.timer || this.running || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.intervalMs);
  }

  private async settle(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((waiting) => waiting.input));
      batch.forEach((waiting, i) => waiting.resolve(outputs?.[i] as O));
    } catch (err) {
      if (batch.length === 1 || !rowSpecific(err)) {
        for (const waiting of batch) waiting.reject(err);
        return;
      }
      for (const waiting of batch) await this.settle([waiting]);
    }
  }
}
