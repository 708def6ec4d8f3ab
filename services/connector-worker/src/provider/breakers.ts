// One opossum breaker per verifier around its provider calls. Only the provider's own failures
// count (outcomes.ts): a refusal, a saturated verifier or a job whose deadline cut the call short
// says nothing about the provider, so a healthy provider's breaker stays closed under our load.
// opossum counts such filtered errors as successes, and a success closes a half-open breaker: so
// the trial call of a half-open breaker that its deadline cuts counts as the provider's timeout.
import CircuitBreaker from 'opossum';
import type { Logger } from '@idv/observability';
import type { AdapterOutput } from '../connectors/connector.ts';
import { Busy, JobOutcome, outcomeOf, ProviderUnavailable } from '../outcomes.ts';
import { BREAKER_STATE_VALUE, type BreakerState, type ProviderMetrics } from './metrics.ts';

export interface BreakerSettings {
  /** the provider's own time for one call with all its requests: beyond it, it failed */
  timeoutMs: number;
  resetMs: number;
  rollingMs: number;
  volumeThreshold: number;
  errorPercent: number;
}

/** One provider call: what it runs, and the epoch ms by which the job needs its answer. */
export interface ProviderCall {
  run: (signal: AbortSignal) => Promise<AdapterOutput>;
  deadline: number;
  /** the trial call of a half-open breaker: a cut by the deadline is not the benefit of the doubt */
  trial?: boolean;
}

type Breaker = CircuitBreaker<[ProviderCall], AdapterOutput>;

/**
 * Runs the call until the provider's timeout or the job's deadline, whichever comes first, and
 * aborts it then. Which one it was decides whose fault the overrun is: past the provider's own
 * timeout it failed; cut by the deadline, the job had too little time (queueing, failover).
 */
async function runTimed(timeoutMs: number, call: ProviderCall): Promise<AdapterOutput> {
  const left = call.deadline - Date.now();
  // made only when the timer fires: an error's stack costs more than the rest of a happy call here
  const overran = (): JobOutcome =>
    left < timeoutMs && !call.trial
      ? new Busy('deadline_cut', `the job's deadline came ${left} ms into the call`)
      : new ProviderUnavailable(
          'provider_timeout',
          `no provider answer within ${Math.min(left, timeoutMs)} ms`,
        );
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const cut = overran();
        controller.abort(cut);
        reject(cut);
      },
      Math.max(0, Math.min(left, timeoutMs)),
    );
  });
  try {
    return await Promise.race([call.run(controller.signal), overrun]);
  } catch (err) {
    throw controller.signal.aborted ? (controller.signal.reason as JobOutcome) : outcomeOf(err);
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

  /** Calls the provider of `verifierId` through its breaker; rejects with a JobOutcome. */
  async call(verifierId: string, call: ProviderCall): Promise<AdapterOutput> {
    const breaker = this.of(verifierId);
    try {
      return await breaker.fire({ ...call, trial: breaker.halfOpen });
    } catch (err) {
      if (err instanceof JobOutcome) throw err;
      const code = (err as { code?: unknown }).code;
      if (code === 'EOPENBREAKER')
        throw new ProviderUnavailable('breaker_open', 'the breaker of this verifier is open');
      if (code === 'ESHUTDOWN') throw new Busy('stopping', 'the connector worker is stopping');
      throw outcomeOf(err);
    }
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

  private of(verifierId: string): Breaker {
    const existing = this.breakers.get(verifierId);
    if (existing) return existing;
    const s = this.settings;
    const breaker: Breaker = new CircuitBreaker(
      (call: ProviderCall) => runTimed(s.timeoutMs, call),
      {
        timeout: false, // runTimed times the call: it knows the job's deadline, opossum does not
        resetTimeout: s.resetMs,
        rollingCountTimeout: s.rollingMs,
        volumeThreshold: s.volumeThreshold,
        errorThresholdPercentage: s.errorPercent,
        errorFilter: (err: unknown) => !(err instanceof JobOutcome && err.countsAgainstProvider),
        name: verifierId,
      },
    );
    const track = (state: BreakerState) => {
      const labels = { type: this.type, verifier: verifierId };
      this.metrics.breakerState.set(labels, BREAKER_STATE_VALUE[state]);
      this.metrics.breakerTransitions.inc({ ...labels, state });
      this.logger.warn({ verifier: verifierId, state }, 'connector breaker changed state');
    };
    breaker.on('open', () => track('open'));
    breaker.on('halfOpen', () => track('half_open'));
    breaker.on('close', () => track('closed'));
    this.metrics.breakerState.set({ type: this.type, verifier: verifierId }, 0);
    this.breakers.set(verifierId, breaker);
    return breaker;
  }
}
