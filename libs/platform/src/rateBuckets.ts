// Token buckets per licence, per community and per tenant, shared by every replica through PostgreSQL: a replica
// decides on its own view of each bucket and adds what it admitted to the shared one every syncMs.
import { runPrepared, type Knex, type PreparedStatement } from '@idv/db';
import type { RateLimit, RateScope, RateSubject } from './rateLimits.ts';

/** The limit of a subject no operator set; rps 0: no limit. */
export type RateDefaults = Record<RateScope, RateLimit>;

/** A limited bucket after a decision, for the caller's RateLimit fields. */
export interface BucketView {
  subject: RateSubject;
  rps: number;
  burst: number;
  /** whole requests left now */
  remaining: number;
  /** seconds until the bucket is full again */
  fullInS: number;
}

export type RateDecision =
  | { admitted: true; buckets: BucketView[] }
  | { admitted: false; buckets: BucketView[]; refusedBy: BucketView; retryAfterS: number };

export interface RateBucketOptions {
  defaults: RateDefaults;
  /** how often admitted requests are added to the shared buckets (RATE_LIMIT_SYNC_MS) */
  syncMs: number;
  onError?: (err: unknown) => void;
  now?: () => number;
}

/**
 * Adds each replica's admitted requests to the shared buckets and answers their new state, in one
 * statement for every bucket of the batch. The limit is the operator's (rate_limits) or else the
 * replica's default, so a limit set by the admin CLI applies at the next sync. A bucket refills
 * by rps a second up to burst on the database clock; what replicas together admitted beyond it
 * leaves it below 0 until the refill pays it back; requests given back (replays) count as taken
 * below 0 and fill it no further than burst. Rows are taken in key order, so two replicas
 * syncing the same buckets cannot deadlock. The table is unlogged: no WAL, nothing to flush.
 */
export const SYNC_BUCKETS: PreparedStatement = {
  name: 'platform_rate_buckets_sync',
  text: `INSERT INTO platform.rate_buckets AS b (scope, subject_id, tokens, taken, rps, burst, refilled_at)
    SELECT u.scope, u.subject_id,
      CASE WHEN coalesce(l.rps, u.rps) > 0
        THEN least(coalesce(l.burst, u.burst), coalesce(l.burst, u.burst) - u.taken) ELSE 0 END,
      u.taken, coalesce(l.rps, u.rps), coalesce(l.burst, u.burst), clock_timestamp()
    FROM unnest($1::text[], $2::uuid[], $3::int[], $4::float8[], $5::int[])
      AS u(scope, subject_id, taken, rps, burst)
    LEFT JOIN platform.rate_limits l ON l.scope = u.scope AND l.subject_id = u.subject_id
    ORDER BY u.scope, u.subject_id
    ON CONFLICT (scope, subject_id) DO UPDATE SET
      tokens = CASE
        WHEN excluded.rps <= 0 THEN 0
        WHEN b.rps <= 0 THEN least(excluded.burst, excluded.burst - excluded.taken)
        ELSE least(excluded.burst, least(excluded.burst, b.tokens + excluded.rps
          * greatest(0, extract(epoch FROM excluded.refilled_at - b.refilled_at)::float8))
          - excluded.taken)
      END,
      taken = excluded.taken, rps = excluded.rps, burst = excluded.burst,
      refilled_at = excluded.refilled_at
    RETURNING b.scope, b.subject_id::text AS id, b.tokens, b.rps, b.burst`,
};

interface Bucket extends RateLimit {
  subject: RateSubject;
  /** the shared bucket's tokens when its state arrived (at) */
  tokens: number;
  /** local ms of the latest state; 0: none yet */
  at: number;
  /** admitted here, not yet sent */
  unsent: number;
  /** admitted here and sent in the running statement */
  sending: number;
  usedAt: number;
}

interface NextSync {
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
  /** a request waits for it: it goes as soon as no statement runs */
  urgent: boolean;
}

const keyOf = (s: RateSubject) => `${s.scope}:${s.id}`;

/** Buckets unused this long are forgotten here (the shared row stays). */
const IDLE_MS = 60_000;

export class RateBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly staleMs: number;
  private readonly now: () => number;
  private next: NextSync | undefined;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly options: RateBucketOptions,
  ) {
    // an active bucket is synced every syncMs; a view older than two of those is not trusted
    this.staleMs = 2 * options.syncMs;
    this.now = options.now ?? Date.now;
  }

  /**
   * Admits a request when every bucket of `subjects` has `cost` left (one request; an image
   * budget's megabytes), and takes it from each; refuses it otherwise, taking nothing. A cost over
   * a bucket's size needs the bucket full and takes the full bucket, no more: one request never
   * leaves a bucket deeper in debt than what replicas admit at once. Waits for the database only
   * when this replica has no recent state of a bucket (its first request, or after a pause).
   */
  async take(subjects: RateSubject[], cost = 1): Promise<RateDecision> {
    if (!Number.isInteger(cost) || cost < 1)
      throw new RangeError('cost must be a whole number >= 1');
    const buckets = subjects.map((subject) => this.bucketOf(subject));
    const started = this.now();
    if (buckets.some((b) => started - b.at > this.staleMs)) await this.sync(true);
    const now = this.now();
    const limited = buckets.filter((b) => b.rps > 0);
    const available = new Map(limited.map((b) => [b, this.available(b, now)]));
    const taken = (b: Bucket) => Math.min(cost, b.burst);
    const short = limited.filter((b) => available.get(b)! < taken(b));
    if (short.length === 0) {
      for (const b of buckets) {
        b.unsent += taken(b);
        b.usedAt = now;
      }
      void this.sync(false);
      return {
        admitted: true,
        buckets: limited.map((b) => view(b, available.get(b)! - taken(b))),
      };
    }
    const waits = short.map((b) => (taken(b) - available.get(b)!) / b.rps);
    const longest = waits.indexOf(Math.max(...waits));
    return {
      admitted: false,
      buckets: limited.map((b) => view(b, available.get(b)!)),
      refusedBy: view(short[longest]!, available.get(short[longest]!)!),
      retryAfterS: Math.max(1, Math.ceil(waits[longest]!)),
    };
  }

  /**
   * Gives back the request `take` admitted on `subjects` when it turned out not to count (its
   * request id was a replay): a captured request sent again spends none of its licence's budget.
   */
  giveBack(subjects: RateSubject[]): void {
    for (const subject of subjects) {
      const bucket = this.buckets.get(keyOf(subject));
      if (bucket) bucket.unsent -= 1;
    }
    void this.sync(false);
  }

  /** Sends what was admitted and not yet sent; for shutdown. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if ([...this.buckets.values()].some((b) => b.unsent !== 0)) await this.sync(true);
  }

  private bucketOf(subject: RateSubject): Bucket {
    const key = keyOf(subject);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      const { rps, burst } = this.options.defaults[subject.scope];
      bucket = { subject, rps, burst, tokens: burst, at: 0, unsent: 0, sending: 0, usedAt: 0 };
      this.buckets.set(key, bucket);
    }
    bucket.usedAt = this.now();
    return bucket;
  }

  private available(b: Bucket, now: number): number {
    const refilled = Math.min(b.burst, b.tokens + (b.rps * Math.max(0, now - b.at)) / 1000);
    // what was given back (unsent below 0) fills the bucket no further than full
    return Math.min(b.burst, refilled - b.unsent - b.sending);
  }

  /** The next statement: at once (urgent) or within syncMs; resolves once it answered. */
  private sync(urgent: boolean): Promise<void> {
    const next = (this.next ??= nextSync());
    if (urgent && !next.urgent) {
      next.urgent = true;
      if (!this.running) setImmediate(() => this.pump());
    } else if (!urgent) this.arm();
    return next.done;
  }

  /** The timer of a statement no request waits for. */
  private arm(): void {
    if (this.timer || this.running || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.options.syncMs);
    this.timer.unref();
  }

  private pump(): void {
    const next = this.next;
    if (this.running || !next) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.next = undefined;
    this.running = true;
    this.send()
      .then(next.resolve, (err: unknown) => {
        next.reject(err);
        // a request that waited answers 503 itself
        if (!next.urgent) this.options.onError?.(err);
      })
      .finally(() => {
        this.running = false;
        if (this.next?.urgent) this.pump();
        else if (this.next) this.arm();
      });
  }

  /** One statement for every bucket with requests to add or without a recent state. */
  private async send(): Promise<void> {
    const now = this.now();
    const batch: Bucket[] = [];
    for (const [key, b] of this.buckets) {
      if (b.unsent !== 0 || now - b.at > this.staleMs) batch.push(b);
      else if (now - b.usedAt > IDLE_MS) this.buckets.delete(key);
    }
    if (batch.length === 0) return;
    for (const b of batch) {
      b.sending = b.unsent;
      b.unsent = 0;
    }
    try {
      const defaults = batch.map((b) => this.options.defaults[b.subject.scope]);
      const rows = await runPrepared<{
        scope: RateScope;
        id: string;
        tokens: number;
        rps: number;
        burst: number;
      }>(this.db, SYNC_BUCKETS, [
        batch.map((b) => b.subject.scope),
        batch.map((b) => b.subject.id),
        batch.map((b) => b.sending),
        defaults.map((d) => d.rps),
        defaults.map((d) => d.burst),
      ]);
      const answered = this.now();
      for (const row of rows) {
        const b = this.buckets.get(`${row.scope}:${row.id}`);
        if (!b) continue;
        Object.assign(b, { tokens: row.tokens, rps: row.rps, burst: row.burst, at: answered });
        b.sending = 0;
      }
    } catch (err) {
      // what was admitted still counts: it goes with the next statement
      for (const b of batch) {
        b.unsent += b.sending;
        b.sending = 0;
      }
      throw err;
    }
  }
}

function nextSync(): NextSync {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => undefined); // a failure no request waits for goes to onError only
  return { done, resolve, reject, urgent: false };
}

function view(b: Bucket, left: number): BucketView {
  return {
    subject: b.subject,
    rps: b.rps,
    burst: b.burst,
    remaining: Math.max(0, Math.floor(left)),
    fullInS: Math.max(0, Math.ceil((b.burst - left) / b.rps)),
  };
}
