// The per-target concurrency cap as a semaphore with a short FIFO wait. A claimed delivery whose
// target is at the cap waits here when the target's recent latency says a slot frees soon;
// otherwise (a slow or stalled target) it is refused at once and goes back to the table, so one
// slow endpoint never holds the dispatcher's in-flight room that other targets need.
import { TargetBusy } from './targetBusy.ts';

interface Target {
  busy: number;
  waiting: (() => void)[];
  /** moving average of call duration, ms; undefined until the first call finished */
  latencyMs: number | undefined;
}

/** How far ahead a waiter may expect its slot; also the hard limit of one wait. */
const MAX_WAIT_MS = 1000;
/** A delivery refused here is looked at again after this pause. */
export const BUSY_PAUSE_MS = 100;

export class TargetSlots {
  private readonly targets = new Map<string, Target>();

  constructor(private readonly concurrency: number) {}

  /** Takes a slot of `target` (waiting briefly when the wait is predictably short), or TargetBusy. */
  async acquire(target: string): Promise<void> {
    let state = this.targets.get(target);
    if (!state) {
      state = { busy: 0, waiting: [], latencyMs: undefined };
      this.targets.set(target, state);
    }
    if (state.busy < this.concurrency) {
      state.busy += 1;
      return;
    }
    // before the first answer, at most one round of waiters (as many as the cap)
    const latency = state.latencyMs ?? MAX_WAIT_MS;
    const expectedWait = ((state.waiting.length + 1) / this.concurrency) * latency;
    if (expectedWait > MAX_WAIT_MS) throw new TargetBusy('target at capacity', BUSY_PAUSE_MS);
    const waiting = state.waiting;
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = waiting.indexOf(grant);
        if (at >= 0) waiting.splice(at, 1);
        reject(new TargetBusy('target at capacity', BUSY_PAUSE_MS));
      }, MAX_WAIT_MS);
      waiting.push(grant);
    });
  }

  /** Gives the slot back (to the first waiter, if any) and notes how long the call took. */
  release(target: string, tookMs: number | undefined): void {
    const state = this.targets.get(target);
    if (!state) return;
    if (tookMs !== undefined)
      state.latencyMs =
        state.latencyMs === undefined ? tookMs : state.latencyMs * 0.8 + tookMs * 0.2;
    const next = state.waiting.shift();
    if (next) return next(); // the slot passes on; busy stays the same
    state.busy -= 1;
  }
}
