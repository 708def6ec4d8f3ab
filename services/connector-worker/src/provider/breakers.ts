// One opossum breaker per verifier around its provider calls: a provider that keeps failing is
// failed fast (the gateway moves on to the next verifier) until the reset timeout lets one try.
import CircuitBreaker from 'opossum';
import type { Logger } from '@idv/observability';
import { ConfigRefused, ProviderRejected, type AdapterOutput } from '../adapters/types.ts';
import { BREAKER_STATE_VALUE, type BreakerState, type ProviderMetrics } from './metrics.ts';

export interface BreakerSettings {
  timeoutMs: number;
  resetMs: number;
  rollingMs: number;
  volumeThreshold: number;
  errorPercent: number;
  capacity: number;
}

/** One provider call: its own abort controller, so a timeout cancels this call and no other. */
export interface ProviderCall {
  controller: AbortController;
  run: (signal: AbortSignal) => Promise<AdapterOutput>;
  /** ms this job may still spend; a job whose gateway waits less than the breaker is cut sooner */
  budgetMs: number;
}

export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  readonly code = 'ETIMEDOUT';
}

type Breaker = CircuitBreaker<[ProviderCall], AdapterOutput>;

async function runWithin(call: ProviderCall): Promise<AdapterOutput> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      call.controller.abort();
      reject(new DeadlineExceeded(`no provider answer within the job's ${call.budgetMs} ms`));
    }, call.budgetMs);
  });
  try {
    return await Promise.race([call.run(call.controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export class VerifierBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly type: string,
    private readonly settings: BreakerSettings,
    private readonly metrics: ProviderMetrics,
    private readonly logger: Logger,
  ) {}

  /** The breaker of `verifierId`, made on first use. */
  of(verifierId: string): Breaker {
    const existing = this.breakers.get(verifierId);
    if (existing) return existing;
    const s = this.settings;
    const breaker: Breaker = new CircuitBreaker(runWithin, {
      timeout: s.timeoutMs,
      resetTimeout: s.resetMs,
      rollingCountTimeout: s.rollingMs,
      volumeThreshold: s.volumeThreshold,
      errorThresholdPercentage: s.errorPercent,
      capacity: s.capacity,
      // A refused input or an over-full breaker says nothing about the provider's health.
      // refusals are not provider failures: a 4xx, the capacity cap, an address the guard refused
      errorFilter: (err: unknown) =>
        err instanceof ProviderRejected ||
        err instanceof ConfigRefused ||
        ['ESEMLOCKED', 'EBLOCKEDTARGET'].includes(String((err as { code?: unknown }).code)),
      name: verifierId,
    });
    // opossum passes the call's arguments as the third listener argument (its types omit it).
    (breaker as unknown as NodeJS.EventEmitter).on(
      'timeout',
      (_err: unknown, _latency: unknown, args: [ProviderCall] | undefined) =>
        args?.[0]?.controller.abort(),
    );
    const track = (state: BreakerState) => {
      this.metrics.breakerState.set(
        { type: this.type, verifier: verifierId },
        BREAKER_STATE_VALUE[state],
      );
      this.metrics.breakerTransitions.inc({ type: this.type, verifier: verifierId, state });
      this.logger.warn({ verifier: verifierId, state }, 'connector breaker changed state');
    };
    breaker.on('open', () => track('open'));
    breaker.on('halfOpen', () => track('half_open'));
    breaker.on('close', () => track('closed'));
    this.metrics.breakerState.set({ type: this.type, verifier: verifierId }, 0);
    this.breakers.set(verifierId, breaker);
    return breaker;
  }

  state(verifierId: string): BreakerState | undefined {
    const breaker = this.breakers.get(verifierId);
    if (!breaker) return undefined;
    return breaker.opened ? 'open' : breaker.halfOpen ? 'half_open' : 'closed';
  }

  shutdown(): void {
    for (const breaker of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}
