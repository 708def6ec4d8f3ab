// Verification metrics: outcomes by kind, failovers between verifiers, shedding and parked runs.
import { Counter, Histogram, type Registry } from '@idv/observability';
import type { VerificationKind } from '@idv/contracts';

export function verificationMetrics(registry: Registry) {
  const outcomes = new Counter({
    name: 'docverify_verifications_total',
    help: 'verifications by kind and outcome (verified, not_verified, inconclusive, rejected, unavailable)',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const failovers = new Counter({
    name: 'docverify_failovers_total',
    help: 'times a verifier was passed over for the next one, by kind and reason',
    labelNames: ['kind', 'reason'],
    registers: [registry],
  });
  const queueWait = new Histogram({
    name: 'docverify_queue_wait_seconds',
    help: 'time a connector job waited (broker queue, verifier limits) before its provider call, by queue',
    labelNames: ['queue'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const shed = new Counter({
    name: 'docverify_shed_total',
    help: 'verifier attempts not made or refused because they could not end in time: backlog (queue backed up past the deadline) or busy (the worker had no slot in time)',
    labelNames: ['queue', 'reason'],
    registers: [registry],
  });
  const parked = new Counter({
    name: 'docverify_runs_parked_total',
    help: 'verification runs parked in a wait queue of the runs queue instead of a slot: fair_share (its community had its share of this gateway) or retry (no verifier could serve it now)',
    labelNames: ['reason'],
    registers: [registry],
  });
  return {
    onRunParked: (reason: 'fair_share' | 'retry') => parked.inc({ reason }),
    onQueueWait: (queue: string, seconds: number) => queueWait.observe({ queue }, seconds),
    onShed: (queue: string, reason: 'backlog' | 'busy') => shed.inc({ queue, reason }),
    recordOutcome: (kind: VerificationKind, outcome: string) => outcomes.inc({ kind, outcome }),
    onFailover: (kind: VerificationKind, _verifier: string, reason: string) =>
      failovers.inc({ kind, reason }),
  };
}
