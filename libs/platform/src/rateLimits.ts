// Rate limits an operator set for one licence, one community or one tenant (all its communities'
// licences together), in place of the configured defaults; and a community's image budget
// (`images`): megabytes of decoded pixels its requests may have decoded, a second and at once,
// so one tenant's images cannot take every image thread of the platform.
import type { Knex } from '@idv/db';
import { InvalidInPlatform } from './tenants.ts';

export const RATE_SCOPES = ['licence', 'community', 'tenant', 'images'] as const;
export type RateScope = (typeof RATE_SCOPES)[number];

/** A token bucket: refills by `rps` a second up to `burst`; rps 0 means no limit. An image
 * budget's tokens are megabytes of decoded pixels. */
export interface RateLimit {
  rps: number;
  burst: number;
}

export interface RateSubject {
  scope: RateScope;
  id: string;
}

export interface OperatorRateLimit extends RateSubject, RateLimit {
  updatedAt: string;
}

interface Row {
  scope: RateScope;
  subject_id: string;
  rps: number;
  burst: number;
  updated_at: Date;
}

const toLimit = (row: Row): OperatorRateLimit => ({
  scope: row.scope,
  id: row.subject_id,
  rps: row.rps,
  burst: row.burst,
  updatedAt: row.updated_at.toISOString(),
});

/** Positive rps (fractions allowed: 0.5 is one request every 2 s) and a whole burst of at least 1. */
export function checkRateLimit(limit: RateLimit): RateLimit {
  if (!Number.isFinite(limit.rps) || limit.rps <= 0 || limit.rps > 1_000_000)
    throw new InvalidInPlatform('rps must be a number above 0 and at most 1000000');
  if (!Number.isInteger(limit.burst) || limit.burst < 1 || limit.burst > 1_000_000)
    throw new InvalidInPlatform('burst must be a whole number from 1 to 1000000');
  return limit;
}

/** Replicas pick a change up at their next sync of the subject's bucket (RATE_LIMIT_SYNC_MS). */
export class RateLimitStore {
  constructor(private readonly db: Knex) {}

  async set(subject: RateSubject, limit: RateLimit): Promise<OperatorRateLimit> {
    const { rps, burst } = checkRateLimit(limit);
    const [row] = await this.db('platform.rate_limits')
      .insert({ scope: subject.scope, subject_id: subject.id, rps, burst })
      .onConflict(['scope', 'subject_id'])
      .merge({ rps, burst, updated_at: this.db.fn.now() })
      .returning<Row[]>(['scope', 'subject_id', 'rps', 'burst', 'updated_at']);
    return toLimit(row!);
  }

  /** Back to the default; true when there was a limit to remove. */
  async unset(subject: RateSubject): Promise<boolean> {
    const removed = await this.db('platform.rate_limits')
      .where({ scope: subject.scope, subject_id: subject.id })
      .delete();
    return removed > 0;
  }

  async get(subject: RateSubject): Promise<OperatorRateLimit | undefined> {
    const row = await this.db('platform.rate_limits')
      .where({ scope: subject.scope, subject_id: subject.id })
      .first<Row | undefined>();
    return row && toLimit(row);
  }

  async list(): Promise<OperatorRateLimit[]> {
    const rows = await this.db('platform.rate_limits')
      .orderBy(['scope', 'subject_id'])
      .select<Row[]>();
    return rows.map(toLimit);
  }
}
