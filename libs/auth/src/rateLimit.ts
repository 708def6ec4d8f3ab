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

/** rate_limited_total of `registry`, made once: the request limits and the image budget share it. */
function refusedCounter(registry?: Registry): Counter<'scope'> | undefined {
  if (!registry) return undefined;
  const known = registry.getSingleMetric('rate_limited_total') as Counter<'scope'> | undefined;
  return (
    known ??
    new Counter({
      name: 'rate_limited_total',
      help: 'requests refused by a rate limit or a community image budget (429, or an upload check_unavailable), by the scope of the limit',
      labelNames: ['scope'],
      registers: [registry],
    })
  );
}

/**
 * Holds the answer of a refusal (429, or an upload's check_unavailable over its budget) up to `ms`,
 * never past its Retry-After: a client that sends again the moment it is refused, without waiting,
 * meets one answer a second per connection instead of turning the service's CPU into refusals
 * (measured: a loop of refused /verify at 760 a second took 0.6 of a gateway's core). A client
 * that waits for Retry-After loses nothing: the hold is shorter. At most `perSubject` answers of
 * one limit's subject and `total` in all are held at once; past them the answer goes at once, so
 * holding costs a bounded number of open requests (each with its body, at most the 1 MB body
 * limit: 256 MB at worst) and timers, no CPU.
 */
export class RefusalHold {
  private readonly held = new Map<string, number>();
  private count = 0;

  constructor(
    private readonly ms: number,
    private readonly perSubject = 16,
    private readonly total = 256,
  ) {}

  async hold(subject: string, retryAfterS: number): Promise<void> {
    const ms = Math.min(this.ms, retryAfterS * 1000);
    const mine = this.held.get(subject) ?? 0;
    if (ms <= 0 || mine >= this.perSubject || this.count >= this.total) return;
    this.held.set(subject, mine + 1);
    this.count += 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      this.count -= 1;
      const left = (this.held.get(subject) ?? 1) - 1;
      if (left > 0) this.held.set(subject, left);
      else this.held.delete(subject);
    }
  }

  /** answers held now, in all */
  get holding(): number {
    return this.count;
  }
}

export function createRateLimiter(
  buckets: RateBuckets,
  registry?: Registry,
  hold?: RefusalHold,
): RateLimiter {
  const refused = refusedCounter(registry);
  return {
    async check(res, licence, community) {
      const subjects = rateSubjectsOf(licence, community);
      const decision = await buckets.take(subjects);
      const fields = rateLimitFields(decision.buckets);
      if (decision.admitted) {
        res.set(fields);
        return subjects;
      }
      const { scope, id } = decision.refusedBy.subject;
      refused?.inc({ scope });
      await hold?.hold(`${scope}:${id}`, decision.retryAfterS);
      throw new TooManyRequests(
        refusal(decision.refusedBy, decision.retryAfterS),
        decision.retryAfterS,
        fields,
      );
    },
    giveBack: (subjects) => buckets.giveBack(subjects),
  };
}

/** A community's image budget spent: why, and when the image may be sent again. */
export interface ImageBudgetRefusal {
  message: string;
  retryAfterS: number;
}

/**
 * A community's image budget (the `images` scope of the shared buckets): megabytes of decoded
 * pixels (@idv/images decodeCost) its requests may send to be decoded, a second and at once.
 * Charged where an image arrives and its header has been read, before it is stored or sent on:
 * /verify answers a refusal 429 (overBudget), a capture upload check_unavailable.
 */
export interface ImageBudget {
  /**
   * Takes `bytes` (rounded up to whole megabytes, at most the whole budget: one request never
   * leaves it deeper in debt than one refill) from `communityId`'s budget; why not, if not.
   */
  take(communityId: string, bytes: number): Promise<ImageBudgetRefusal | undefined>;
  /** Holds a refusal of `take` (RefusalHold), once whatever the request held is given back. */
  hold(communityId: string, refusal: ImageBudgetRefusal): Promise<void>;
}

const MEGABYTE = 1_000_000;

export function createImageBudget(
  buckets: RateBuckets,
  registry?: Registry,
  hold?: RefusalHold,
): ImageBudget {
  const refused = refusedCounter(registry);
  return {
    async take(communityId, bytes) {
      if (bytes <= 0) return undefined;
      const megabytes = Math.ceil(bytes / MEGABYTE);
      const decision = await buckets.take([{ scope: 'images', id: communityId }], megabytes);
      if (decision.admitted) return undefined;
      refused?.inc({ scope: 'images' });
      const { rps, burst } = decision.refusedBy;
      return {
        message: `the image budget of community ${communityId} is spent (${rps} MB of decoded pixels a second, ${burst} MB at once; these images need ${megabytes} MB); retry after ${decision.retryAfterS} s`,
        retryAfterS: decision.retryAfterS,
      };
    },
    hold: async (communityId, refusal) => hold?.hold(`images:${communityId}`, refusal.retryAfterS),
  };
}

/** The 429 of a refusal by the image budget. */
export function overBudget(refusal: ImageBudgetRefusal): TooManyRequests {
  return new TooManyRequests(refusal.message, refusal.retryAfterS);
}
