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
