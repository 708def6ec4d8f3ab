// A gateway's run slots (RUNS_PREFETCH) as a FIFO semaphore: the broker delivers more run messages
// than there are slots (see runPrefetch), so a run within its shares may wait here for a slot.

/** The consumer's prefetch for `slots` run slots; why it must exceed them is said in the body. */
export function runPrefetch(slots: number): number {
  // A delivery is held for as long as its message is handled: a run in a slot for its whole try,
  // and a message over its share, or backing off, until the broker confirmed it parked. With
  // prefetch == slots those parked messages took deliveries the slots need: while a tenant flooding
  // over its share was being parked, a slot stayed idle and another tenant's run stayed in the
  // queue behind the flood. Twice the slots leaves as many deliveries to parking (and to runs
  // waiting here within their shares) as the slots hold, so a free slot always has a message.
  return 2 * slots;
}

export class SlotPool {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly slots: number) {
    this.free = slots;
  }

  /** Resolves once a slot is this caller's; waiters are served in order. */
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes on
    else this.free += 1;
  }

  get inUse(): number {
    return this.slots - this.free;
  }
}
