// Brute-force throttling of the login page (issue 27): failures counted per account, per client
// address and per pair of both, with growing delays; only the pair is ever locked, so guesses from
// one address cannot lock the account's owner out elsewhere. Names and addresses are kept as HMACs.
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Knex } from '@idv/db';

export interface LoginLimits {
  /** failures of a pair that cost no delay */
  freeFailures: number;
  /** the first delay; each further failure doubles it (account and address counts alike) */
  baseDelaySeconds: number;
  /** the longest delay of a pair */
  maxDelaySeconds: number;
  /** failures of a pair that lock it */
  lockAfter: number;
  /** the first lock of a pair; each further lock lasts twice the last, at most a day */
  lockMinutes: number;
  /** failures at one account, from any address, that cost no delay */
  accountFreeFailures: number;
  accountMaxDelaySeconds: number;
  /** failures from one address, at any username, that cost no delay */
  addressFreeFailures: number;
  addressMaxDelaySeconds: number;
  /** counts untouched this long start again from 0 */
  windowMinutes: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = Object.freeze({
  freeFailures: 3,
  baseDelaySeconds: 1,
  maxDelaySeconds: 30,
  lockAfter: 6,
  lockMinutes: 15,
  accountFreeFailures: 20,
  accountMaxDelaySeconds: 60,
  addressFreeFailures: 50,
  addressMaxDelaySeconds: 300,
  windowMinutes: 60,
});

/** Each limit's smallest and largest value. */
const RANGES: Record<keyof LoginLimits, readonly [number, number]> = {
  freeFailures: [0, 1000],
  baseDelaySeconds: [0, 3600],
  maxDelaySeconds: [0, 3600],
  lockAfter: [1, 1000],
  lockMinutes: [1, 1440],
  accountFreeFailures: [0, 100_000],
  accountMaxDelaySeconds: [0, 3600],
  addressFreeFailures: [0, 100_000],
  addressMaxDelaySeconds: [0, 3600],
  windowMinutes: [1, 1440],
};

/** A limit out of its range; `member` names it. */
export class LoginLimitsInvalid extends Error {
  override readonly name = 'LoginLimitsInvalid';

  constructor(
    readonly member: string,
    message: string,
  ) {
    super(message);
  }
}

const isLimit = (member: string): member is keyof LoginLimits => Object.hasOwn(RANGES, member);

/** A community's own limits (null: none), checked as they will apply over the defaults. */
export function loginLimits(partial: unknown): Partial<LoginLimits> {
  if (partial === null || partial === undefined) return {};
  if (typeof partial !== 'object' || Array.isArray(partial)) {
    throw new LoginLimitsInvalid('limits', 'limits must be an object');
  }
  const limits: Partial<LoginLimits> = {};
  for (const [member, value] of Object.entries(partial)) {
    if (!isLimit(member)) throw new LoginLimitsInvalid(member, `${member} is no login limit`);
    const [min, max] = RANGES[member];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new LoginLimitsInvalid(member, `${member} must be an integer from ${min} to ${max}`);
    }
    limits[member] = value;
  }
  const { freeFailures, lockAfter } = { ...DEFAULT_LOGIN_LIMITS, ...limits };
  if (lockAfter <= freeFailures) {
    throw new LoginLimitsInvalid(
      limits.lockAfter === undefined ? 'freeFailures' : 'lockAfter',
      `lockAfter (${lockAfter}) must be greater than freeFailures (${freeFailures})`,
    );
  }
  return limits;
}

export interface LoginAttempt {
  communityId: string;
  subject: Buffer;
  address: Buffer;
  /** pair failures counting this attempt */
  failures: number;
  /** set when this attempt, if it fails, locks the pair */
  locksUntil?: Date;
}

export type LoginVerdict =
  | { allowed: true; attempt: LoginAttempt }
  | {
      allowed: false;
      reason: 'locked' | 'throttled';
      retryAfterSeconds: number;
      lockedUntil?: Date;
    };

interface CountRow {
  subject: Buffer;
  address: Buffer;
  failures: number;
  next_allowed_at: Date | null;
  locked_until: Date | null;
  locks: number;
  updated_at: Date;
}

/** The new count of a row an allowed attempt adds to. */
interface Count {
  row: CountRow;
  failures: number;
  delaySeconds: number;
  lockMinutes: number;
  locks: number;
}

/** The subject or address of a row that counts over all the other. */
const ANY = Buffer.alloc(0);
const TABLE = 'oauth.login_throttle';
const MAX_LOCK_MINUTES = 1440;
const SWEEP_BATCH = 5000;

/** The seconds the next attempt waits after `failures`: doubling past the free ones, capped. */
function backoff(failures: number, free: number, base: number, max: number): number {
  if (failures <= free || base === 0) return 0;
  return Math.min(base * 2 ** Math.min(failures - free - 1, 32), max);
}

/** The row as it stands at `now`: a lock run out, or counts gone quiet for the window, restart. */
function standing(row: CountRow, now: Date, windowMinutes: number): CountRow {
  if (row.locked_until && row.locked_until > now) return row;
  const quiet = row.updated_at.getTime() < now.getTime() - windowMinutes * 60_000;
  if (!row.locked_until && !quiet) return row;
  return { ...row, failures: 0, next_allowed_at: null, locked_until: null };
}

const secondsUntil = (until: Date, now: Date) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** The part of a client address one party holds: an IPv4 address (mapped or not), an IPv6 /64. */
function addressBlock(raw: string): string {
  const address = raw
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  // anything else (no address known) counts as given
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address. */
function ipv6Groups(address: string): number[] {
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(+a << 8) | +b, (+c << 8) | +d].map((g) => g.toString(16)).join(':'),
  );
  const [head = '', tail] = hex.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** A refused attempt, thrown out of begin()'s transaction so that it rolls back. */
class Refusal extends Error {
  constructor(readonly verdict: LoginVerdict) {
    super('login attempt refused');
  }
}

export class LoginThrottle {
  constructor(
    private readonly db: Knex,
    private readonly hmacKey: Buffer,
  ) {
    if (hmacKey.length < 16) throw new Error('the login throttle key needs at least 16 bytes');
  }

  /**
   * Counts the attempt up front, before the password is checked, so racing guesses get no more
   * than the limits allow; a refused attempt counts nothing.
   */
  async begin(
    communityId: string,
    username: string,
    address: string,
    limits: LoginLimits,
    options: {
      knownDevice?: boolean;
      /**
       * failures of the username across all addresses, within the window, that lock it from
       * everywhere: for second factors, whose guesser holds the password already (NIST allows
       * at most 100); passwords never lock account-wide
       */
      accountLockAfter?: number;
    } = {},
  ): Promise<LoginVerdict> {
    const subject = this.hash('subject', communityId, username);
    const from = this.hash('address', communityId, addressBlock(address));
    // the order of the primary key: every transaction locks rows in it, so none deadlock
    const keys: [Buffer, Buffer][] = [
      [ANY, from],
      [subject, ANY],
      [subject, from],
    ];
    // a refusal rolls back: a flood of refused attempts (new usernames from a throttled address)
    // leaves no rows behind
    const refused = (verdict: LoginVerdict) => Promise.reject(new Refusal(verdict));
    return this.db
      .transaction(async (trx) => {
        await trx.raw(
          `INSERT INTO oauth.login_throttle (community_id, subject, address)
         VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)
         ON CONFLICT (community_id, subject, address) DO UPDATE SET failures = 0 WHERE false`,
          keys.flatMap(([s, a]) => [communityId, s, a]),
        );
        const { rows } = await trx.raw<{ rows: (CountRow & { now: Date })[] }>(
          `SELECT subject, address, failures, next_allowed_at, locked_until, locks, updated_at,
                now() AS now
         FROM oauth.login_throttle
         WHERE community_id = ? AND (subject, address) IN ((?, ?), (?, ?), (?, ?))`,
          [communityId, ...keys.flat()],
        );
        const now = rows[0]!.now;
        const [byAddress, account, pair] = keys.map(([s, a]) => {
          const row = rows.find((r) => r.subject.equals(s) && r.address.equals(a));
          if (!row) throw new Error('login throttle row missing after its upsert');
          return standing(row, now, limits.windowMinutes);
        }) as [CountRow, CountRow, CountRow];

        if (pair.locked_until) {
          const lockedUntil = pair.locked_until;
          const retryAfterSeconds = secondsUntil(lockedUntil, now);
          return refused({ allowed: false, reason: 'locked', retryAfterSeconds, lockedUntil });
        }
        if (
          options.accountLockAfter !== undefined &&
          account.failures >= options.accountLockAfter
        ) {
          const lockedUntil = new Date(
            account.updated_at.getTime() + limits.windowMinutes * 60_000,
          );
          const retryAfterSeconds = secondsUntil(lockedUntil, now);
          return refused({ allowed: false, reason: 'locked', retryAfterSeconds, lockedUntil });
        }
        const waits = [pair, options.knownDevice ? undefined : account, byAddress]
          .map((row) => row?.next_allowed_at)
          .filter((until): until is Date => !!until && until > now)
          .map((until) => secondsUntil(until, now));
        if (waits.length > 0) {
          return refused({
            allowed: false,
            reason: 'throttled',
            retryAfterSeconds: Math.max(...waits),
          });
        }

        const counted = (row: CountRow, free: number, max: number): Count => ({
          row,
          failures: row.failures + 1,
          delaySeconds: backoff(row.failures + 1, free, limits.baseDelaySeconds, max),
          lockMinutes: 0,
          locks: row.locks,
        });
        const failures = pair.failures + 1;
        const locks = failures >= limits.lockAfter;
        const lockMinutes = limits.lockMinutes * 2 ** Math.min(pair.locks, 11);
        const counts: Count[] = [
          counted(byAddress, limits.addressFreeFailures, limits.addressMaxDelaySeconds),
          counted(account, limits.accountFreeFailures, limits.accountMaxDelaySeconds),
          {
            ...counted(pair, limits.freeFailures, limits.maxDelaySeconds),
            lockMinutes: locks ? Math.min(lockMinutes, MAX_LOCK_MINUTES) : 0,
            locks: pair.locks + (locks ? 1 : 0),
          },
        ];
        const locksUntil = await this.count(trx, communityId, counts);
        const attempt: LoginAttempt = { communityId, subject, address: from, failures };
        return { allowed: true, attempt: locksUntil ? { ...attempt, locksUntil } : attempt };
      })
      .catch((err: unknown) => {
        if (err instanceof Refusal) return err.verdict;
        throw err;
      }) as Promise<LoginVerdict>;
  }

  /**
   * Signed in: the pair and the account start afresh; the address only takes back this attempt.
   * `keepAccountCount` (second factors): the account-wide count only takes back this attempt
   * too, so the owner's own sign-ins do not hand a guesser a fresh budget.
   */
  async succeeded(
    attempt: LoginAttempt,
    options: { keepAccountCount?: boolean } = {},
  ): Promise<void> {
    const { communityId, subject, address } = attempt;
    // one row at a time in the primary key's order, as begin() locks them
    await this.db.transaction(async (trx) => {
      await trx(TABLE)
        .where({ community_id: communityId, subject: ANY, address })
        .update({ failures: trx.raw('greatest(failures - 1, 0)') });
      await trx(TABLE)
        .where({ community_id: communityId, subject, address: ANY })
        .update(
          options.keepAccountCount
            ? { failures: trx.raw('greatest(failures - 1, 0)') }
            : { failures: 0, next_allowed_at: null, updated_at: trx.fn.now() },
        );
      await trx(TABLE).where({ community_id: communityId, subject, address }).delete();
    });
  }

  /** The attempt failed: its count stands; says whether it locked the pair. */
  async failed(attempt: LoginAttempt): Promise<{ locked: boolean; lockedUntil?: Date }> {
    if (!attempt.locksUntil) return { locked: false };
    const { communityId, subject, address } = attempt;
    const row: { locked_until: Date } | undefined = await this.db(TABLE)
      .where({ community_id: communityId, subject, address })
      .where('locked_until', '>', this.db.fn.now())
      .first('locked_until');
    return row ? { locked: true, lockedUntil: row.locked_until } : { locked: false };
  }

  /** The admin CLI's unlock: every pair of the username and its account-wide count go. */
  async unlock(communityId: string, username: string): Promise<boolean> {
    const subject = this.hash('subject', communityId, username);
    return this.db.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: { held: boolean }[] }>(
        `SELECT coalesce(locked_until > now(), false) OR coalesce(next_allowed_at > now(), false)
                AS held
         FROM oauth.login_throttle WHERE community_id = ? AND subject = ?
         ORDER BY address FOR UPDATE`,
        [communityId, subject],
      );
      await trx(TABLE).where({ community_id: communityId, subject }).delete();
      return rows.some((row) => row.held);
    });
  }

  /** Deletes counts with nothing running, untouched for `olderThanMinutes`; says how many. */
  async sweep(olderThanMinutes = 1440): Promise<number> {
    let swept = 0;
    for (;;) {
      // SKIP LOCKED: the sweep never waits on a login, so it cannot deadlock with one
      const { rowCount } = await this.db.raw<{ rowCount: number }>(
        `DELETE FROM oauth.login_throttle
         WHERE (community_id, subject, address) IN (
           SELECT community_id, subject, address FROM oauth.login_throttle
           WHERE updated_at < now() - ? * interval '1 minute'
             AND coalesce(locked_until <= now(), true)
             AND coalesce(next_allowed_at <= now(), true)
           LIMIT ? FOR UPDATE SKIP LOCKED)`,
        [olderThanMinutes, SWEEP_BATCH],
      );
      swept += rowCount;
      if (rowCount < SWEEP_BATCH) return swept;
    }
  }

  /** Writes an allowed attempt's counts; the lock it sets on failure, if any. */
  private async count(trx: Knex, communityId: string, counts: Count[]): Promise<Date | undefined> {
    const { rows } = await trx.raw<{ rows: { locked_until: Date | null }[] }>(
      `UPDATE oauth.login_throttle AS t SET
         failures = v.failures,
         window_start = CASE WHEN v.failures = 1 THEN now() ELSE t.window_start END,
         next_allowed_at = CASE WHEN v.delay > 0 THEN now() + v.delay * interval '1 second' END,
         locked_until = CASE WHEN v.lock > 0 THEN now() + v.lock * interval '1 minute' END,
         locks = v.locks,
         updated_at = now()
       FROM (VALUES ${counts.map(() => '(?::bytea, ?::bytea, ?::int, ?::int, ?::int, ?::int)').join(', ')})
         AS v(subject, address, failures, delay, lock, locks)
       WHERE t.community_id = ? AND t.subject = v.subject AND t.address = v.address
       RETURNING t.locked_until`,
      [
        ...counts.flatMap((c) => [
          c.row.subject,
          c.row.address,
          c.failures,
          c.delaySeconds,
          c.lockMinutes,
          c.locks,
        ]),
        communityId,
      ],
    );
    return rows.find((row) => row.locked_until)?.locked_until ?? undefined;
  }

  private hash(kind: 'subject' | 'address', communityId: string, value: string): Buffer {
    return createHmac('sha256', this.hmacKey)
      .update(`login-throttle ${kind}\0${communityId}\0${value}`)
      .digest()
      .subarray(0, 16);
  }
}
