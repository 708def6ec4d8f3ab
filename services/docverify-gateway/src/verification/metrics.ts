// Verification metrics: outcomes by kind and failovers between verifiers.
import { Counter, type Registry } from '@idv/observability';
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
  return {
    recordOutcome: (kind: VerificationKind, outcome: string) => outcomes.inc({ kind, outcome }),
    onFailover: (kind: VerificationKind, _verifier: string, reason: string) =>
      failovers.inc({ kind, reason }),
  };
}
