// How long each connector queue's jobs of one community recently waited before a worker started
// them, and how long the work then took: the basis for answering 503 at once instead of letting a
// job time out queued. Kept per (connector queue, community), so one community's timeouts (its
// verifier saturated, its provider hanging) never shed another community's calls.

interface Estimate {
  waitMs: number;
  serviceMs: number;
  at: number;
}

/** Whose estimate: the jobs of one community on one connector queue. */
export interface WaitKey {
  queue: string;
  communityId: string;
}

/** An estimate halves every HALF_LIFE_MS without news, so shedding ends by letting probes through. */
const HALF_LIFE_MS = 2000;
/** Estimates kept at most; the least recently updated goes first. */
const MAX_KEYS = 10_000;

/** Rises at once with longer waits, falls over a few samples. */
function blend(previous: number, sample: number): number {
  return sample > previous ? (previous + sample) / 2 : previous * 0.8 + sample * 0.2;
}

const keyOf = ({ queue, communityId }: WaitKey) => `${queue}\u0000${communityId}`;

export class QueueWaits {
  private readonly byKey = new Map<string, Estimate>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A reply: the job waited `waitMs` in the platform, then its provider call took `serviceMs`. */
  record(key: WaitKey, waitMs: number, serviceMs: number): void {
    const current = this.current(key);
    this.set(key, {
      waitMs: blend(current.waitMs, Math.max(0, waitMs)),
      serviceMs: blend(current.serviceMs, Math.max(0, serviceMs)),
      at: this.now(),
    });
  }

  /**
   * No reply within `waitedMs`: jobs wait longer than a whole budget now, by how much nobody
   * knows. Taken as twice the budget, so the next jobs are shed until it decays and a probe goes.
   */
  recordTimeout(key: WaitKey, waitedMs: number): void {
    const current = this.current(key);
    this.set(key, { ...current, waitMs: Math.max(current.waitMs, 2 * waitedMs), at: this.now() });
  }

  /** ms a job sent now may expect to wait before a worker starts it. */
  expectedWait(key: WaitKey): number {
    return this.current(key).waitMs;
  }

  /** ms a job sent now may expect until its answer: the wait and the work. */
  expectedTotal(key: WaitKey): number {
    const { waitMs, serviceMs } = this.current(key);
    return waitMs + serviceMs;
  }

  private set(key: WaitKey, estimate: Estimate): void {
    const k = keyOf(key);
    this.byKey.delete(k); // re-inserted last: the map's order is the order of updates
    this.byKey.set(k, estimate);
    if (this.byKey.size > MAX_KEYS) this.byKey.delete(this.byKey.keys().next().value as string);
  }

  private current(key: WaitKey): Estimate {
    const found = this.byKey.get(keyOf(key));
    if (!found) return { waitMs: 0, serviceMs: 0, at: this.now() };
    const decay = 0.5 ** ((this.now() - found.at) / HALF_LIFE_MS);
    return { waitMs: found.waitMs * decay, serviceMs: found.serviceMs, at: found.at };
  }
}
