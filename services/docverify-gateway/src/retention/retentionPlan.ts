// What a config's dataRetention means for a finished verification: keep nothing, keep it until
// it is read once, or keep it for a number of seconds. Nothing is kept past the session expiry.
import type { VerificationSettings } from '@idv/contracts';

/** expireSessionInMin of the well-known: the longest anything with PII is kept. */
export const MAX_RETENTION_S = 10080 * 60;

export type RetentionPlan =
  { keep: false } | { keep: true; mode: 'until_retrieved' | 'ttl'; expiresAt: Date };

export function retentionPlan(settings: VerificationSettings, now: Date): RetentionPlan {
  const retention = settings.dataRetention;
  // no choice made, retention off, or ttl 0: nothing with PII is stored (privacy by default)
  if (!retention || retention.pii_retention_off) return { keep: false };
  const ttl = retention.pii_retention_ttl ?? 0;
  if (ttl === 0) return { keep: false };
  const seconds = ttl === -1 ? MAX_RETENTION_S : Math.min(ttl, MAX_RETENTION_S);
  return {
    keep: true,
    mode: ttl === -1 ? 'until_retrieved' : 'ttl',
    expiresAt: new Date(now.getTime() + seconds * 1000),
  };
}

/**
 * A run's final result (async /verify, a session) is kept whatever the retention says, since
 * nobody could fetch it otherwise: until the caller reads it once, or with a ttl > 0 for that long
 * (read as often as wanted); never past expireSessionInMin.
 */
export function runResultPlan(
  settings: VerificationSettings,
  now: Date,
): { mode: 'until_retrieved' | 'ttl'; expiresAt: Date } {
  const plan = retentionPlan(settings, now);
  if (plan.keep && plan.mode === 'ttl') return { mode: 'ttl', expiresAt: plan.expiresAt };
  return { mode: 'until_retrieved', expiresAt: new Date(now.getTime() + MAX_RETENTION_S * 1000) };
}
