// Rate limits per licence and per community on licence-checked requests: every answer carries the
// RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers); past a limit, 429.
import { TooManyRequests } from '@idv/http';
import { Counter, type Registry } from '@idv/observability';
import type { BucketView, Community, Licence, RateBuckets, RateSubject } from '@idv/platform';
import type { Response } from 'express';

export type RateLimitCheck = (
  res: Response,
  licence: Licence,
  community: Community | undefined,
) => Promise<void>;

/**
 * What a request counts against: its licence, and the community it addresses when its route names
 * one the licence covers, else every community the licence lists (usually one; a system licence
 * lists none, so only its own limit applies).
 */
export function rateSubjectsOf(licence: Licence, community: Community | undefined): RateSubject[] {
  const communities = community ? [community] : licence.communities;
  return [
    { scope: 'licence', id: licence.id },
    ...communities.map((c) => ({ scope: 'community' as const, id: c.id })),
  ];
}

/** Per scope the bucket with the fewest requests left, so each policy is named once. */
function tightest(buckets: BucketView[]): BucketView[] {
  const byScope = new Map<string, BucketView>();
  for (const b of buckets) {
    const seen = byScope.get(b.subject.scope);
    if (!seen || b.remaining < seen.remaining) byScope.set(b.subject.scope, b);
  }
  return [...byScope.values()];
}

/**
 * Structured-field lists, one item per scope: the policy's quota q is the bucket size (burst) and
 * its window w the seconds an empty bucket takes to refill (burst / rps, rounded up), so q/w is
 * the rate; r is the requests left now and t the seconds until the bucket is full again.
 */
export function rateLimitFields(buckets: BucketView[]): Record<string, string> {
  const shown = tightest(buckets);
  if (shown.length === 0) return {};
  return {
    'RateLimit-Policy': shown
      .map((b) => `"${b.subject.scope}";q=${b.burst};w=${Math.max(1, Math.ceil(b.burst / b.rps))}`)
      .join(', '),
    RateLimit: shown.map((b) => `"${b.subject.scope}";r=${b.remaining};t=${b.fullInS}`).join(', '),
  };
}

function refusal(bucket: BucketView, retryAfterS: number): string {
  const whose =
    bucket.subject.scope === 'licence' ? 'this licence' : `community ${bucket.subject.id}`;
  return `rate limit of ${whose} reached (${bucket.rps} requests a second, ${bucket.burst} at once); retry after ${retryAfterS} s`;
}

export function createRateLimitCheck(buckets: RateBuckets, registry?: Registry): RateLimitCheck {
  const refused = registry
    ? new Counter({
        name: 'rate_limited_total',
        help: 'requests refused with 429 by a rate limit, by the scope of the limit',
        labelNames: ['scope'],
        registers: [registry],
      })
    : undefined;
  return async (res, licence, community) => {
    const decision = await buckets.take(rateSubjectsOf(licence, community));
    const fields = rateLimitFields(decision.buckets);
    if (decision.admitted) {
      res.set(fields);
      return;
    }
    refused?.inc({ scope: decision.refusedBy.subject.scope });
    throw new TooManyRequests(
      refusal(decision.refusedBy, decision.retryAfterS),
      decision.retryAfterS,
      fields,
    );
  };
}
