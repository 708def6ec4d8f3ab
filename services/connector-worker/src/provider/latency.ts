// What a verifier's provider calls have recently taken: the basis of admission and deadline checks.

/** A ring of the last `size` call durations (ms) of one verifier. */
export class LatencyWindow {
  private readonly samples: number[] = [];
  private next = 0;
  /** the samples in order, kept until the next record: every job asks twice, calls record once */
  private sorted: number[] | undefined;

  constructor(private readonly size = 64) {}

  record(ms: number): void {
    if (this.samples.length < this.size) this.samples.push(ms);
    else this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.size;
    this.sorted = undefined;
  }

  /** The q-quantile (0..1) of recent calls; 0 before the first, so nothing is refused unseen. */
  quantile(q: number): number {
    if (this.samples.length === 0) return 0;
    this.sorted ??= [...this.samples].sort((a, b) => a - b);
    return this.sorted[Math.min(this.sorted.length - 1, Math.floor(q * this.sorted.length))] ?? 0;
  }

  /** A call is not started with less time than the fastest fifth of recent calls took. */
  shortest(): number {
    return this.quantile(0.2);
  }

  typical(): number {
    return this.quantile(0.5);
  }
}
