// A concurrency cap per key (a webhook, a community's share of an origin, an origin: see
// callbackSlots.ts) as a semaphore with a short FIFO wait. A delivery whose key is at the cap waits
// here when the key's recent latency says a slot frees soon; otherwise (a slow or stalled target)
// it is refused at once and goes back to the table, so one slow endpoint never holds the in-flight
// room (or the events being handled) that other targets need. A key whose calls stopped finishing
// counts as at least that slow, so one that hangs suddenly is refused after a wait's length rather
// than only once its first calls time out.
import { TargetBusy } from './targetBusy.ts';

interface Target {
  busy: number;
  waiting: (() => void)[];
  /** moving average of call duration, ms; undefined until the first call finished */
  latencyMs: number | undefined;
  /** when a call last finished, or calls started after an idle spell (ms, clock below) */
  progressAt: number;
}

/** How far ahead a waiter may expect its slot; also the hard limit of one wait. */
export const MAX_WAIT_MS = 1000;
/** The bounds of the pause after which a refused delivery is looked at again. */
const MIN_BUSY_PAUSE_MS = 100;
export const MAX_BUSY_PAUSE_MS = 5000;

/**
 * A refused delivery comes back when a slot can be expected, not sooner: each return costs a claim
 * and an update in the delivery table, and with a fixed short pause the deliveries to one stalled
 * target came back ten times a second, taking database time the healthy targets needed. Jitter
 * keeps the deliveries refused together from all returning at once.
 */
function busyPauseMs(expectedWaitMs: number): number {
  const pause = Math.min(MAX_BUSY_PAUSE_MS, Math.max(MIN_BUSY_PAUSE_MS, expectedWaitMs));
  return Math.round(pause * (0.8 + Math.random() * 0.4));
}

export class TargetSlots {
  private readonly targets = new Map<string, Target>();

  constructor(
    private readonly concurrency: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Takes a slot of `target` (waiting briefly when the wait is predictably short), or TargetBusy.
   * `maxWaitMs` is what is left of the delivery's one wait when it needs slots of several keys.
   */
  async acquire(target: string, maxWaitMs = MAX_WAIT_MS): Promise<void> {
    let state = this.targets.get(target);
    if (!state) {
      state = { busy: 0, waiting: [], latencyMs: undefined, progressAt: this.now() };
      this.targets.set(target, state);
    }
    if (state.busy < this.concurrency) {
      if (state.busy === 0) state.progressAt = this.now();
      state.busy += 1;
      return;
    }
    // before the first answer, at most one round of waiters (as many as the cap)
    const stalledMs = this.now() - state.progressAt;
    const latency = Math.max(state.latencyMs ?? MAX_WAIT_MS, stalledMs);
    const expectedWait = ((state.waiting.length + 1) / this.concurrency) * latency;
    if (expectedWait > maxWaitMs || maxWaitMs <= 0)
      throw new TargetBusy('target at capacity', busyPauseMs(expectedWait));
    const waiting = state.waiting;
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = waiting.indexOf(grant);
        if (at >= 0) waiting.splice(at, 1);
        reject(new TargetBusy('target at capacity', busyPauseMs(expectedWait)));
      }, maxWaitMs);
      waiting.push(grant);
    });
  }

  /**
   * Gives the slot back (to the first waiter, if any) and notes how long the call took; undefined:
   * no call was made with it, which says nothing of the target's speed or progress.
   */
  release(target: string, tookMs: number | undefined): void {
    const state = this.targets.get(target);
    if (!state) return;
    if (tookMs !== undefined) {
      state.progressAt = this.now();
      state.latencyMs =
        state.latencyMs === undefined ? tookMs : state.latencyMs * 0.8 + tookMs * 0.2;
    }
    const next = state.waiting.shift();
    if (next) return next(); // the slot passes on; busy stays the same
    state.busy -= 1;
  }

  /** Forgets keys with nothing in flight for `idleMs` (deleted webhooks, origins no longer used). */
  forgetIdle(idleMs: number): void {
    const before = this.now() - idleMs;
    for (const [target, state] of this.targets)
      if (state.busy === 0 && state.progressAt < before) this.targets.delete(target);
  }
}
