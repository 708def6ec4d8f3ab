// Per-verifier admission: the operator's caps on concurrent provider calls and calls per second,
// with a FIFO of jobs waiting for a slot, none of them kept longer than its deadline allows.
import type { VerifierLimits } from '@idv/contracts';
import { Busy } from '../outcomes.ts';
import { LatencyWindow } from './latency.ts';

export interface AdmissionRequest {
  /** epoch ms by which the call must have ended */
  deadline: number;
  /** what a call usually takes (ms): how long a slot takes to come free */
  typicalMs: number;
  /** the least a call takes (ms): a job is not started with less time left */
  shortestMs: number;
}

/** Gives the slot back; calling it twice is harmless. */
export type Release = () => void;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (err: Busy) => void;
  timer: NodeJS.Timeout;
}

export class VerifierAdmission {
  private running = 0;
  private readonly queue: Waiter[] = [];
  private tokens = 1;
  private refilledAt: number;
  private pumpTimer: NodeJS.Timeout | undefined;
  private typicalMs = 0;

  constructor(
    private limits: VerifierLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.refilledAt = now();
  }

  /** The limits travel with every job, so a change by the operator applies from its next job. */
  update(limits: VerifierLimits = {}): void {
    if (
      limits.maxConcurrent === this.limits.maxConcurrent &&
      limits.maxPerSecond === this.limits.maxPerSecond
    )
      return;
    this.limits = limits;
    this.pump();
  }

  /** Resolves when the call may start; rejects Busy at once when it could not start in time. */
  acquire(request: AdmissionRequest): Promise<Release> {
    this.typicalMs = request.typicalMs;
    this.refill();
    if (this.queue.length === 0 && this.canStart()) return Promise.resolve(this.start());
    const waitMs = this.expectedWait(this.queue.length);
    const startBy = request.deadline - request.shortestMs;
    if (this.now() + waitMs > startBy) return Promise.reject(this.saturated(waitMs));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(this.saturated(this.expectedWait(this.queue.length)));
        }, startBy - this.now()),
      };
      this.queue.push(waiter);
      this.schedulePump();
    });
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Refuses every waiting job: the worker is stopping. */
  close(): void {
    clearTimeout(this.pumpTimer);
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Busy('stopping', 'the connector worker is stopping'));
    }
  }

  private saturated(waitMs: number): Busy {
    return new Busy(
      'verifier_saturated',
      `the verifier's limits leave no slot before the deadline (about ${Math.ceil(waitMs)} ms away)`,
      Math.ceil(waitMs),
    );
  }

  private canStart(): boolean {
    const { maxConcurrent, maxPerSecond } = this.limits;
    return (
      (maxConcurrent === undefined || this.running < maxConcurrent) &&
      (maxPerSecond === undefined || this.tokens >= 1)
    );
  }

  private start(): Release {
    this.running += 1;
    if (this.limits.maxPerSecond !== undefined) this.tokens -= 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.pump();
    };
  }

  private pump(): void {
    this.refill();
    while (this.queue.length > 0 && this.canStart()) {
      const waiter = this.queue.shift() as Waiter;
      clearTimeout(waiter.timer);
      waiter.resolve(this.start());
    }
    this.schedulePump();
  }

  /** With a rate cap, waiters also wait for the next token, which no release announces. */
  private schedulePump(): void {
    const rate = this.limits.maxPerSecond;
    if (this.pumpTimer || this.queue.length === 0 || rate === undefined || this.tokens >= 1) return;
    this.pumpTimer = setTimeout(
      () => {
        this.pumpTimer = undefined;
        this.pump();
      },
      Math.ceil(((1 - this.tokens) / rate) * 1000),
    );
  }

  /** Tokens come back at the contracted rate, at most one in hand: calls are spaced, not burst. */
  private refill(): void {
    const now = this.now();
    const rate = this.limits.maxPerSecond;
    if (rate !== undefined)
      this.tokens = Math.min(1, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
  }

  /** ms until the job at `position` in the queue may start, from the calls ahead of it. */
  private expectedWait(position: number): number {
    const { maxConcurrent, maxPerSecond } = this.limits;
    let wait = 0;
    if (maxConcurrent !== undefined) {
      const ahead = this.running + position + 1 - maxConcurrent;
      if (ahead > 0) wait = Math.ceil(ahead / maxConcurrent) * this.typicalMs;
    }
    if (maxPerSecond !== undefined) {
      const needed = position + 1 - this.tokens;
      if (needed > 0) wait = Math.max(wait, (needed / maxPerSecond) * 1000);
    }
    return wait;
  }
}

/** What the worker keeps per verifier between jobs: its admission and its recent call latencies. */
export interface VerifierGate {
  admission: VerifierAdmission;
  latency: LatencyWindow;
}

export class VerifierGates {
  private readonly gates = new Map<string, VerifierGate>();

  /** The gate of `verifierId`, made on first use; `limits` as the latest job carries them. */
  of(verifierId: string, limits: VerifierLimits | undefined): VerifierGate {
    let gate = this.gates.get(verifierId);
    if (!gate) {
      gate = { admission: new VerifierAdmission(limits), latency: new LatencyWindow() };
      this.gates.set(verifierId, gate);
    } else gate.admission.update(limits);
    return gate;
  }

  close(): void {
    for (const gate of this.gates.values()) gate.admission.close();
  }
}
