// Rate limits per licence, per community and per tenant on licence-checked requests: every answer
// carries the RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers); past a
// limit, 429. The check runs before anything of the request is written (its request id included).
import { TooManyRequests } from '@idv/http';
import { Counter, type Registry } from '@idv/observability';
import type { BucketView, Community, Licence, RateBuckets, RateSubject } from '@idv/platform';
import type { Response } from 'express';

export interface RateLimiter {
  /** Takes one request from each bucket the request counts against, or throws 429; answers them. */
  check(res: Response, licence: Licence, community: Community | undefined): Promise<RateSubject[]>;
  /** Gives back what `check` took for a request that does not count after all (a replay). */
  giveBack(subjects: RateSubject[]): void;
}

/**
 * What a request counts against: its licence; the community it addresses, which is the one its
 * route names (and the licence covers), or the licence's only community, the one community it can
 * address; and the tenant of that community, or where none is addressed the tenants of the
 * licence's communities (one, but for a licence an operator made across tenants). A route naming
 * no community charges no community of a licence covering several: it used to charge every one of
 * them. A system licence lists no communities, so only its own limit applies.
 */
export function rateSubjectsOf(licence: Licence, community: Community | undefined): RateSubject[] {
  const only = licence.communities.length === 1 ? licence.communities[0] : undefined;
  const addressed = community ?? only;
  const tenants = addressed
    ? [addressed.tenantId]
    : [...new Set(licence.communities.map((c) => c.tenantId))];
  return [
    { scope: 'licence', id: licence.id },
    ...(addressed ? [{ scope: 'community' as const, id: addressed.id }] : []),
    ...tenants.map((id) => ({ scope: 'tenant' as const, id })),
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
  const { scope, id } = bucket.subject;
  const whose = scope === 'licence' ? 'this licence' : `${scope} ${id}`;
  return `rate limit of ${whose} reached (${bucket.rps} requests a second, ${bucket.burst} at once); retry after ${retryAfterS} s`;
}

export function createRateLimiter(buckets: RateBuckets, registry?: Registry): RateLimiter {
  const refused = registry
    ? new Counter({
        name: 'rate_limited_total',
        help: 'requests refused with 429 by a rate limit, by the scope of the limit',
        labelNames: ['scope'],
        registers: [registry],
      })
    : undefined;
  return {
    async check(res, licence, community) {
      const subjects = rateSubjectsOf(licence, community);
      const decision = await buckets.take(subjects);
      const fields = rateLimitFields(decision.buckets);
      if (decision.admitted) {
        res.set(fields);
        return subjects;
      }
      refused?.inc({ scope: decision.refusedBy.subject.scope });
      throw new TooManyRequests(
        refusal(decision.refusedBy, decision.retryAfterS),
        decision.retryAfterS,
        fields,
      );
    },
    giveBack: (subjects) => buckets.giveBack(subjects),
  };
}
