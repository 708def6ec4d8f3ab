// How long each connector queue's jobs recently waited before a worker started them, and how long
// the work then took: the basis for answering 503 at once instead of letting a job time out queued.

interface Estimate {
  waitMs: number;
  serviceMs: number;
  at: number;
}

/** An estimate halves every HALF_LIFE_MS without news, so shedding ends by letting probes through. */
const HALF_LIFE_MS = 2000;

/** Rises at once with longer waits, falls over a few samples. */
function blend(previous: number, sample: number): number {
  return sample > previous ? (previous + sample) / 2 : previous * 0.8 + sample * 0.2;
}

export class QueueWaits {
  private readonly byQueue = new Map<string, Estimate>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A reply: the job waited `waitMs` in the platform, then its provider call took `serviceMs`. */
  record(queue: string, waitMs: number, serviceMs: number): void {
    const current = this.current(queue);
    this.byQueue.set(queue, {
      waitMs: blend(current.waitMs, Math.max(0, waitMs)),
      serviceMs: blend(current.serviceMs, Math.max(0, serviceMs)),
      at: this.now(),
    });
  }

  /**
   * No reply within `waitedMs`: jobs wait longer than a whole budget now, by how much nobody
   * knows. Taken as twice the budget, so the next jobs are shed until it decays and a probe goes.
   */
  recordTimeout(queue: string, waitedMs: number): void {
    const current = this.current(queue);
    this.byQueue.set(queue, {
      ...current,
      waitMs: Math.max(current.waitMs, 2 * waitedMs),
      at: this.now(),
    });
  }

  /** ms a job sent now may expect to wait before a worker starts it. */
  expectedWait(queue: string): number {
    return this.current(queue).waitMs;
  }

  /** ms a job sent now may expect until its answer: the wait and the work. */
  expectedTotal(queue: string): number {
    const { waitMs, serviceMs } = this.current(queue);
    return waitMs + serviceMs;
  }

  private current(queue: string): Estimate {
    const found = this.byQueue.get(queue);
    if (!found) return { waitMs: 0, serviceMs: 0, at: this.now() };
    const decay = 0.5 ** ((this.now() - found.at) / HALF_LIFE_MS);
    return { waitMs: found.waitMs * decay, serviceMs: found.serviceMs, at: found.at };
  }
}
