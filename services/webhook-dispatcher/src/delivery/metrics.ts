// Dispatcher metrics: deliveries by outcome, attempt latency, queue lag and breaker state.
import { Counter, Gauge, Histogram, type Registry } from '@idv/observability';
import type { BreakerState } from './targetBreakers.ts';

const STATE_VALUE: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

export function dispatcherMetrics(registry: Registry) {
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'finished deliveries by outcome (succeeded, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const attempts = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'latency of one callback attempt by outcome (succeeded, retry, failed)',
    labelNames: ['outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'webhook_queue_lag_seconds',
    help: 'how late a due delivery attempt started (claim time minus due time)',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const intakeLag = new Histogram({
    name: 'webhook_event_intake_lag_seconds',
    help: 'event age when the dispatcher recorded its deliveries',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const breakers = new Gauge({
    name: 'webhook_target_breaker_state',
    help: 'breaker state per target origin: 0 closed, 1 half open, 2 open',
    labelNames: ['target'],
    registers: [registry],
  });
  return {
    finished: (outcome: 'succeeded' | 'failed') => deliveries.inc({ outcome }),
    attempted: (outcome: string, seconds: number) => attempts.observe({ outcome }, seconds),
    lagged: (seconds: number) => lag.observe(Math.max(0, seconds)),
    eventRecorded: (seconds: number) => intakeLag.observe(Math.max(0, seconds)),
    breakerState: (target: string, state: BreakerState) =>
      breakers.set({ target }, STATE_VALUE[state]),
  };
}

export type DispatcherMetrics = ReturnType<typeof dispatcherMetrics>;
