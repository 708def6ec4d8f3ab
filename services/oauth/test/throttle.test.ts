// Brute-force throttling of the login page on real PostgreSQL: delays, locks of the pair only,
// counts per account and per address, racing guesses, and no name or address kept in clear.
// Time passes by moving a community's rows into the past, never by sleeping.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { platformMigrations } from '@idv/platform';
import {
  DEFAULT_LOGIN_LIMITS,
  LoginLimitsInvalid,
  loginLimits,
  LoginThrottle,
  type LoginAttempt,
  type LoginLimits,
  type LoginVerdict,
} from '../src/login/throttle.ts';
import { oauthMigrations } from '../src/migrations.ts';

/** No delays, a lock after four failures for a minute, wide account and address counts. */
const QUICK: LoginLimits = {
  freeFailures: 2,
  baseDelaySeconds: 0,
  maxDelaySeconds: 0,
  lockAfter: 4,
  lockMinutes: 1,
  accountFreeFailures: 1000,
  accountMaxDelaySeconds: 1,
  addressFreeFailures: 1000,
  addressMaxDelaySeconds: 1,
  windowMinutes: 10,
};
const ANY = Buffer.alloc(0);
const USER = 'testy.mctestface@example.test';

describe('login throttle', () => {
  let database: TestDatabase;
  let throttle: LoginThrottle;

  const limits = (overrides: Partial<LoginLimits> = {}): LoginLimits => ({
    ...QUICK,
    ...overrides,
  });

  /** One try with a wrong password, as the login page makes it. */
  const fail = async (
    communityId: string,
    username: string,
    address: string,
    applied: LoginLimits,
    options: { knownDevice?: boolean } = {},
  ): Promise<LoginVerdict> => {
    const verdict = await throttle.begin(communityId, username, address, applied, options);
    if (verdict.allowed) await throttle.failed(verdict.attempt);
    return verdict;
  };

  const allowed = (verdict: LoginVerdict): LoginAttempt => {
    if (!verdict.allowed) expect.fail(`refused as ${verdict.reason}`);
    return verdict.attempt;
  };

  /** As if `seconds` had gone by for every row of the community. */
  const pass = async (communityId: string, seconds: number) => {
    const back = (column: string) => `${column} = ${column} - ? * interval '1 second'`;
    await database.db.raw(
      `UPDATE oauth.login_throttle SET ${['window_start', 'next_allowed_at', 'locked_until', 'updated_at'].map(back).join(', ')}
       WHERE community_id = ?`,
      [seconds, seconds, seconds, seconds, communityId],
    );
  };

  const row = (communityId: string, subject: Buffer, address: Buffer) =>
    database
      .db('oauth.login_throttle')
      .where({ community_id: communityId, subject, address })
      .first<{ failures: number; locks: number; locked_until: Date | null } | undefined>();

  /** Seconds of the lock or delay the pair's last count set. */
  const setFor = async (attempt: LoginAttempt, column: 'locked_until' | 'next_allowed_at') => {
    const { rows } = await database.db.raw<{ rows: { seconds: string }[] }>(
      `SELECT extract(epoch FROM ${column} - updated_at) AS seconds FROM oauth.login_throttle
       WHERE community_id = ? AND subject = ? AND address = ?`,
      [attempt.communityId, attempt.subject, attempt.address],
    );
    return Number(rows[0]?.seconds);
  };

  before(async () => {
    database = await createTestDatabase([platformMigrations, oauthMigrations]);
    throttle = new LoginThrottle(database.db, randomBytes(32));
  });
  after(async () => {
    await database?.drop();
  });

  it('lets the free failures through at once, then makes the next attempt wait', async () => {
    const c = randomUUID();
    const applied = limits({ baseDelaySeconds: 1, maxDelaySeconds: 1, lockAfter: 10 });
    for (let n = 1; n <= 3; n++) {
      expect(allowed(await fail(c, USER, '192.0.2.1', applied)).failures).to.equal(n);
    }
    const refused = await throttle.begin(c, USER, '192.0.2.1', applied);
    expect(refused).to.deep.equal({ allowed: false, reason: 'throttled', retryAfterSeconds: 1 });
    await pass(c, 1);
    // the refusal counted nothing
    expect(allowed(await throttle.begin(c, USER, '192.0.2.1', applied)).failures).to.equal(4);
  });

  it('doubles the delay with each failure up to its cap, saying how long to wait', async () => {
    const c = randomUUID();
    const applied = limits({
      freeFailures: 0,
      baseDelaySeconds: 1,
      maxDelaySeconds: 4,
      lockAfter: 10,
    });
    for (const delay of [1, 2, 4, 4]) {
      allowed(await fail(c, USER, '192.0.2.2', applied));
      const refused = await throttle.begin(c, USER, '192.0.2.2', applied);
      expect(refused).to.include({ allowed: false, reason: 'throttled', retryAfterSeconds: delay });
      await pass(c, delay);
    }
  });

  it('locks the pair on reaching lockAfter and refuses it as locked', async () => {
    const c = randomUUID();
    for (let n = 1; n <= 3; n++) {
      const attempt = allowed(await fail(c, USER, '192.0.2.3', limits()));
      expect(attempt.locksUntil).to.equal(undefined);
    }
    const last = allowed(await throttle.begin(c, USER, '192.0.2.3', limits()));
    expect(last.failures).to.equal(4);
    expect(last.locksUntil).to.be.instanceOf(Date);
    expect(await throttle.failed(last)).to.deep.equal({
      locked: true,
      lockedUntil: last.locksUntil,
    });
    const refused = await throttle.begin(c, USER, '192.0.2.3', limits());
    expect(refused).to.deep.include({
      allowed: false,
      reason: 'locked',
      lockedUntil: last.locksUntil,
    });
    expect(refused.allowed || refused.retryAfterSeconds).to.be.within(59, 60);
  });

  it('does not lock the same username out from another address', async () => {
    const c = randomUUID();
    for (let n = 1; n <= 4; n++) await fail(c, USER, '192.0.2.4', limits());
    expect(await throttle.begin(c, USER, '192.0.2.4', limits())).to.include({ reason: 'locked' });
    expect(allowed(await throttle.begin(c, USER, '198.51.100.4', limits())).failures).to.equal(1);
    expect(
      allowed(await throttle.begin(c, 'someone-else', '192.0.2.4', limits())).failures,
    ).to.equal(1);
  });

  it('slows one address trying many usernames, and only that address', async () => {
    const c = randomUUID();
    const applied = limits({ addressFreeFailures: 2, baseDelaySeconds: 1 });
    for (const name of ['u1', 'u2', 'u3']) allowed(await fail(c, name, '192.0.2.5', applied));
    expect(await throttle.begin(c, 'u4', '192.0.2.5', applied)).to.deep.equal({
      allowed: false,
      reason: 'throttled',
      retryAfterSeconds: 1,
    });
    allowed(await throttle.begin(c, 'u4', '198.51.100.5', applied));
    await pass(c, 1);
    allowed(await throttle.begin(c, 'u4', '192.0.2.5', applied));
  });

  it('slows guesses at one account from many addresses, but not on a device it knows', async () => {
    const c = randomUUID();
    const applied = limits({ accountFreeFailures: 2, baseDelaySeconds: 1, lockAfter: 10 });
    for (const address of ['192.0.2.61', '192.0.2.62', '192.0.2.63']) {
      allowed(await fail(c, USER, address, applied));
    }
    expect(await throttle.begin(c, USER, '192.0.2.64', applied)).to.include({
      reason: 'throttled',
      retryAfterSeconds: 1,
    });
    const known = allowed(
      await throttle.begin(c, USER, '192.0.2.64', applied, { knownDevice: true }),
    );
    expect(await row(c, known.subject, ANY)).to.include({ failures: 4, locked_until: null });
  });

  it('on success resets the pair and the account, and takes only its own count from the address', async () => {
    const c = randomUUID();
    const applied = limits({ freeFailures: 5, lockAfter: 10 });
    await fail(c, USER, '192.0.2.7', applied);
    await fail(c, USER, '192.0.2.7', applied);
    await fail(c, USER, '198.51.100.7', applied);
    await fail(c, 'someone-else', '192.0.2.7', applied);
    const attempt = allowed(await throttle.begin(c, USER, '192.0.2.7', applied));
    expect(attempt.failures).to.equal(3);
    await throttle.succeeded(attempt);
    expect(await row(c, attempt.subject, attempt.address)).to.equal(undefined);
    expect(await row(c, attempt.subject, ANY)).to.include({ failures: 0 });
    expect(await row(c, ANY, attempt.address)).to.include({ failures: 3 });
    expect(allowed(await throttle.begin(c, USER, '192.0.2.7', applied)).failures).to.equal(1);
  });

  it('starts the counts again once the window has been quiet', async () => {
    const c = randomUUID();
    const applied = limits({ freeFailures: 1, baseDelaySeconds: 1, maxDelaySeconds: 1 });
    await fail(c, USER, '192.0.2.8', applied);
    await fail(c, USER, '192.0.2.8', applied);
    expect(await throttle.begin(c, USER, '192.0.2.8', applied)).to.include({ reason: 'throttled' });
    await pass(c, 9 * 60);
    expect(allowed(await fail(c, USER, '192.0.2.8', applied)).failures).to.equal(3);
    await pass(c, 10 * 60 + 1);
    const fresh = allowed(await throttle.begin(c, USER, '192.0.2.8', applied));
    expect(fresh.failures).to.equal(1);
    expect(await row(c, fresh.subject, ANY)).to.include({ failures: 1 });
    expect(await row(c, ANY, fresh.address)).to.include({ failures: 1 });
  });

  it('restarts the count when a lock runs out, and locks twice as long the next time', async () => {
    const c = randomUUID();
    const applied = limits({ freeFailures: 1, lockAfter: 2 });
    await fail(c, USER, '192.0.2.9', applied);
    const first = allowed(await fail(c, USER, '192.0.2.9', applied));
    expect(await setFor(first, 'locked_until')).to.equal(60);
    await pass(c, 61);
    expect(allowed(await fail(c, USER, '192.0.2.9', applied)).failures).to.equal(1);
    const second = allowed(await fail(c, USER, '192.0.2.9', applied));
    expect(await setFor(second, 'locked_until')).to.equal(120);
    expect(await row(c, second.subject, second.address)).to.include({ locks: 2 });
    const refused = await throttle.begin(c, USER, '192.0.2.9', applied);
    expect(refused.allowed || refused.retryAfterSeconds).to.be.within(119, 120);
  });

  it('gives 50 racing guesses at one pair no more than lockAfter password checks', async () => {
    const c = randomUUID();
    const applied = limits({ lockAfter: 5 });
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => throttle.begin(c, USER, '192.0.2.10', applied)),
    );
    const passed = verdicts.filter((v) => v.allowed);
    expect(passed).to.have.length(5);
    expect(verdicts.filter((v) => !v.allowed && v.reason === 'locked')).to.have.length(45);
    const attempt = allowed(passed[0]!);
    expect(await row(c, attempt.subject, attempt.address)).to.include({ failures: 5 });
    expect(await row(c, ANY, attempt.address)).to.include({ failures: 5 });
  });

  it('keeps racing attempts over shared rows free of deadlocks', async () => {
    const c = randomUUID();
    const tries = ['u1', 'u2', 'u3'].flatMap((name) =>
      ['192.0.2.11', '192.0.2.12', '2001:db8::11'].map((address) => [name, address] as const),
    );
    const verdicts = await Promise.all(
      [...tries, ...tries, ...tries].map(([name, address]) =>
        fail(c, name, address, limits({ lockAfter: 10 })),
      ),
    );
    expect(verdicts.every((v) => v.allowed)).to.equal(true);
  });

  it('counts an IPv6 /64 as one address, and an IPv4-mapped address as IPv4', async () => {
    const c = randomUUID();
    const addressOf = async (address: string) =>
      allowed(await throttle.begin(c, randomUUID(), address, limits())).address.toString('hex');
    const block = await addressOf('2001:db8:1:2::1');
    expect(await addressOf('2001:DB8:1:2:ffff:ffff:ffff:fffe')).to.equal(block);
    expect(await addressOf('[2001:db8:1:2:0:0:0:9]')).to.equal(block);
    expect(await addressOf('2001:db8:1:3::1')).to.not.equal(block);
    const v4 = await addressOf('192.0.2.13');
    expect(await addressOf('::ffff:192.0.2.13')).to.equal(v4);
    expect(await addressOf('::FFFF:c000:020d')).to.equal(v4);
    expect(await addressOf('192.0.2.14')).to.not.equal(v4);
  });

  it('unlocks a username from every address at once, and says whether anything was held', async () => {
    const c = randomUUID();
    const applied = limits({ freeFailures: 0, lockAfter: 1 });
    for (const address of ['192.0.2.15', '198.51.100.15']) await fail(c, USER, address, applied);
    await fail(c, 'someone-else', '192.0.2.15', applied);
    expect(await throttle.unlock(c, USER)).to.equal(true);
    for (const address of ['192.0.2.15', '198.51.100.15']) {
      expect(allowed(await throttle.begin(c, USER, address, limits())).failures).to.equal(1);
    }
    expect(await throttle.begin(c, 'someone-else', '192.0.2.15', applied)).to.include({
      reason: 'locked',
    });
    expect(await throttle.unlock(c, USER)).to.equal(false);
    expect(await throttle.unlock(c, 'nobody-tried')).to.equal(false);
  });

  it('sweeps counts idle for a day, but not a lock still running', async () => {
    const c = randomUUID();
    const recent = randomUUID();
    await fail(c, USER, '192.0.2.16', limits());
    const locked = allowed(
      await fail(c, 'someone-else', '198.51.100.16', limits({ lockAfter: 1, freeFailures: 0 })),
    );
    await fail(recent, USER, '192.0.2.16', limits());
    await database.db.raw(
      `UPDATE oauth.login_throttle SET updated_at = updated_at - interval '25 hours'
       WHERE community_id = ?`,
      [c],
    );
    expect(await throttle.sweep()).to.equal(5);
    const left = await database.db('oauth.login_throttle').where({ community_id: c });
    expect(left).to.have.length(1);
    expect(left[0]).to.deep.include({ subject: locked.subject, address: locked.address });
    expect(
      await database.db('oauth.login_throttle').where({ community_id: recent }),
    ).to.have.length(3);
  });

  it('accepts a partial set of limits and refuses bad ones, naming the member', () => {
    expect(loginLimits({ lockAfter: 10, lockMinutes: 30 })).to.deep.equal({
      lockAfter: 10,
      lockMinutes: 30,
    });
    expect(loginLimits(null)).to.deep.equal({});
    expect(loginLimits({ ...DEFAULT_LOGIN_LIMITS })).to.deep.equal(DEFAULT_LOGIN_LIMITS);
    const bad: [unknown, string][] = [
      [{ lockMinutes: 0 }, 'lockMinutes'],
      [{ lockMinutes: 1441 }, 'lockMinutes'],
      [{ baseDelaySeconds: 1.5 }, 'baseDelaySeconds'],
      [{ maxDelaySeconds: 3601 }, 'maxDelaySeconds'],
      [{ accountMaxDelaySeconds: Infinity }, 'accountMaxDelaySeconds'],
      [{ addressFreeFailures: Number.NaN }, 'addressFreeFailures'],
      [{ windowMinutes: '60' }, 'windowMinutes'],
      [{ freeFailures: -1 }, 'freeFailures'],
      [{ freeFailures: 3, lockAfter: 3 }, 'lockAfter'],
      [{ lockAfter: 2 }, 'lockAfter'],
      [{ freeFailures: 6 }, 'freeFailures'],
      [{ lockedMinutes: 5 }, 'lockedMinutes'],
      [[6], 'limits'],
      ['strict', 'limits'],
    ];
    for (const [partial, member] of bad) {
      let thrown: unknown;
      try {
        loginLimits(partial);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(partial)).to.be.instanceOf(LoginLimitsInvalid);
      expect((thrown as LoginLimitsInvalid).member).to.equal(member);
      expect((thrown as LoginLimitsInvalid).message).to.contain(member);
    }
  });

  it('keeps no username or address in clear', async () => {
    const c = randomUUID();
    const addresses = ['192.0.2.17', '2001:db8:17::17'];
    for (const address of addresses) await fail(c, USER, address, limits());
    const { rows } = await database.db.raw<{ rows: { subject: Buffer; address: Buffer }[] }>(
      'SELECT * FROM oauth.login_throttle WHERE community_id = ?',
      [c],
    );
    expect(rows).to.have.length(5);
    const stored = JSON.stringify(rows);
    const bytes = Buffer.concat(rows.flatMap((r) => [r.subject, r.address]));
    for (const clear of [USER, 'testy.mctestface', ...addresses, '2001:db8:17:0']) {
      expect(stored).to.not.contain(clear);
      expect(bytes.includes(clear)).to.equal(false);
      expect(bytes.toString('hex')).to.not.contain(Buffer.from(clear).toString('hex'));
    }
    for (const r of rows) {
      expect([0, 16]).to.include(r.subject.length);
      expect([0, 16]).to.include(r.address.length);
    }
  });

  it('leaves no row behind for a refused attempt (a flood of new usernames from a slowed address)', async () => {
    const communityId = randomUUID();
    const slow = limits({
      addressFreeFailures: 0,
      addressMaxDelaySeconds: 60,
      baseDelaySeconds: 60,
    });
    await fail(communityId, USER, '192.0.2.80', slow);
    const rows = async () =>
      (await database.db('oauth.login_throttle').where({ community_id: communityId })).length;
    const before = await rows();
    for (let i = 0; i < 20; i++) {
      const verdict = await throttle.begin(communityId, `${USER}-${i}`, '192.0.2.80', slow);
      expect(verdict.allowed).to.equal(false);
    }
    expect(await rows()).to.equal(before);
  });

  it('locks a username from every address at accountLockAfter, and keeps its count on success when asked', async () => {
    const communityId = randomUUID();
    const wide = limits({ lockAfter: 100, freeFailures: 100 });
    const options = { accountLockAfter: 5 };
    for (let i = 0; i < 4; i++) {
      const verdict = await throttle.begin(communityId, USER, `198.51.100.${i}`, wide, options);
      await throttle.failed(allowed(verdict));
    }
    // the owner's success takes back only its own attempt: the guesser's count stands
    const owner = allowed(await throttle.begin(communityId, USER, '203.0.113.1', wide, options));
    await throttle.succeeded(owner, { keepAccountCount: true });
    await throttle.failed(
      allowed(await throttle.begin(communityId, USER, '198.51.100.9', wide, options)),
    );
    const locked = await throttle.begin(communityId, USER, '203.0.113.2', wide, options);
    expect(locked).to.deep.include({ allowed: false, reason: 'locked' });
    // a window without failures opens it again
    await pass(communityId, wide.windowMinutes * 60 + 1);
    expect(
      (await throttle.begin(communityId, USER, '203.0.113.2', wide, options)).allowed,
    ).to.equal(true);
  });
});
