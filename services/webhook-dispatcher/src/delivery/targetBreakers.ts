// Per target origin: a cap on concurrent callbacks and an opossum breaker that stops calling it
// while it keeps failing, so one slow or broken endpoint cannot stall the others. The cap is ours,
// not opossum's `capacity`: opossum counts its semaphore rejections as failures and would open
// the breaker of a target that is merely busy.
import CircuitBreaker from 'opossum';
import { TargetBusy } from './targetBusy.ts';
import { TargetSlots } from './targetSlots.ts';

export { TargetBusy };

export interface TargetResponse {
  status: number;
  headers: Record<string, string | undefined>;
}

/** A 5xx answer counts against the target's health but is still an answer. */
export class ServerErrorAnswer extends Error {
  constructor(readonly response: TargetResponse) {
    super(`status ${response.status}`);
  }
}

export type BreakerState = 'closed' | 'half_open' | 'open';

export interface TargetBreakerOptions {
  concurrency: number;
  callTimeoutMs: number;
  resetTimeoutMs: number;
  onStateChange?: (target: string, state: BreakerState) => void;
}

type Send = () => Promise<TargetResponse>;

export class TargetBreakers {
  private readonly breakers = new Map<string, CircuitBreaker<[Send], TargetResponse>>();
  private readonly slots: TargetSlots;

  constructor(private readonly options: TargetBreakerOptions) {
    this.slots = new TargetSlots(options.concurrency);
  }

  private breakerFor(target: string): CircuitBreaker<[Send], TargetResponse> {
    let breaker = this.breakers.get(target);
    if (breaker) return breaker;
    breaker = new CircuitBreaker(
      async (send: Send) => {
        const response = await send();
        if (response.status >= 500) throw new ServerErrorAnswer(response);
        return response;
      },
      {
        timeout: this.options.callTimeoutMs,
        resetTimeout: this.options.resetTimeoutMs,
        errorThresholdPercentage: 50,
        volumeThreshold: 10,
        rollingCountTimeout: 10_000,
      },
    );
    const report = this.options.onStateChange;
    if (report) {
      breaker.on('open', () => report(target, 'open'));
      breaker.on('halfOpen', () => report(target, 'half_open'));
      breaker.on('close', () => report(target, 'closed'));
    }
    this.breakers.set(target, breaker);
    return breaker;
  }

  /**
   * Sends through the target's breaker; TargetBusy when it is open, or at capacity for longer
   * than a short wait.
   */
  async call(target: string, send: Send): Promise<TargetResponse> {
    await this.slots.acquire(target);
    const started = performance.now();
    let took: number | undefined;
    try {
      const response = await this.breakerFor(target).fire(send);
      took = performance.now() - started;
      return response;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EOPENBREAKER')
        throw new TargetBusy('breaker open', Math.min(this.options.resetTimeoutMs, 5000));
      took = performance.now() - started;
      if (err instanceof ServerErrorAnswer) return err.response;
      throw err;
    } finally {
      // a call the open breaker refused took no time at the target: it says nothing of its speed
      this.slots.release(target, took);
    }
  }

  shutdown(): void {
    for (const breaker of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}
