// Dispatcher metrics: deliveries by outcome, attempt latency, queue lag, breakers by state and
// deferred callbacks by reason. None is labelled by webhook, community or receiver: /metrics is
// unauthenticated, and a receiver's address tells one tenant about another's integrations.
import { Counter, Gauge, Histogram, type Registry } from '@idv/observability';
import type { BusyReason } from './targetBusy.ts';
import type { BreakerState } from './targetBreakers.ts';

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
  let breakerCounts = (): Record<BreakerState, number> => ({ closed: 0, half_open: 0, open: 0 });
  new Gauge({
    name: 'webhook_breakers',
    help: 'webhook breakers (one per webhook called lately) by state: closed, half_open, open',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      for (const [state, count] of Object.entries(breakerCounts())) this.set({ state }, count);
    },
  });
  const deferred = new Counter({
    name: 'webhook_callbacks_deferred_total',
    help: 'callbacks put back without a call, by reason (breaker_open, webhook_busy, tenant_busy, community_busy, origin_busy)',
    labelNames: ['reason'],
    registers: [registry],
  });
  return {
    finished: (outcome: 'succeeded' | 'failed') => deliveries.inc({ outcome }),
    attempted: (outcome: string, seconds: number) => attempts.observe({ outcome }, seconds),
    lagged: (seconds: number) => lag.observe(Math.max(0, seconds)),
    eventRecorded: (seconds: number) => intakeLag.observe(Math.max(0, seconds)),
    deferred: (reason: BusyReason) => deferred.inc({ reason }),
    /** where the breaker gauge reads its counts at each scrape */
    countBreakers: (counts: () => Record<BreakerState, number>) => {
      breakerCounts = counts;
    },
  };
}

export type DispatcherMetrics = ReturnType<typeof dispatcherMetrics>;
