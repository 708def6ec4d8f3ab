// Metrics of provider calls: breaker state per verifier, provider latency, jobs by outcome.
import { Counter, Gauge, Histogram, type Registry } from '@idv/observability';

export type BreakerState = 'closed' | 'half_open' | 'open';
export const BREAKER_STATE_VALUE: Record<BreakerState, number> = {
  closed: 0,
  half_open: 1,
  open: 2,
};

export interface ProviderMetrics {
  breakerState: Gauge<'type' | 'verifier'>;
  breakerTransitions: Counter<'type' | 'verifier' | 'state'>;
  providerLatency: Histogram<'type' | 'kind' | 'result'>;
  jobs: Counter<'type' | 'kind' | 'outcome'>;
  queueWait: Histogram<'type'>;
  busy: Counter<'type' | 'code'>;
  inFlight: Gauge<'type'>;
}

export function providerMetrics(registry: Registry): ProviderMetrics {
  return {
    breakerState: new Gauge({
      name: 'connector_breaker_state',
      help: 'breaker state per verifier: 0 closed, 1 half open, 2 open',
      labelNames: ['type', 'verifier'],
      registers: [registry],
    }),
    breakerTransitions: new Counter({
      name: 'connector_breaker_transitions_total',
      help: 'breaker state changes per verifier',
      labelNames: ['type', 'verifier', 'state'],
      registers: [registry],
    }),
    providerLatency: new Histogram({
      name: 'connector_provider_latency_seconds',
      help: 'time of one provider call (all its HTTP requests), by result',
      labelNames: ['type', 'kind', 'result'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'connector_jobs_total',
      help: 'connector jobs answered, by outcome',
      labelNames: ['type', 'kind', 'outcome'],
      registers: [registry],
    }),
    queueWait: new Histogram({
      name: 'connector_queue_wait_seconds',
      help: 'time from the gateway sending a job to its provider call starting (broker queue and verifier limits)',
      labelNames: ['type'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    busy: new Counter({
      name: 'connector_busy_total',
      help: 'jobs answered busy (not started in time: deadline, verifier limits, stopping), by code',
      labelNames: ['type', 'code'],
      registers: [registry],
    }),
    inFlight: new Gauge({
      name: 'connector_jobs_in_flight',
      help: 'jobs this worker holds: waiting for a slot or calling the provider',
      labelNames: ['type'],
      registers: [registry],
    }),
  };
}
