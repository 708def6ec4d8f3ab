// The sign-in's unhappy paths and protocol rules over plain HTTP (a cookie jar, no browser):
// step-up for acr_values, max_age and prompt=login; sessions made before a policy or a recovery;
// second-factor codes and their throttle; brute force with its events and log lines. Bad input
// and the pages: signInInput.test.ts. Each group signs in to a community of its own.
import { expect } from 'chai';
import { ACR } from '../src/domain/authMethods.ts';
import {
  enrolTotp,
  resetFactors,
  resetPassword,
  setMfaPolicy,
  unlockAccount,
} from '../src/signInAdmin.ts';
import { alertOf, headingOf, type Answer } from '@idv/testing/httpBrowser';
import {
  expectPage,
  here,
  PASSWORD,
  SETTINGS_CACHE_MS,
  SignInWorld,
  type Place,
} from './signInWorld.ts';

/**
 * Room for a fifth credentials check to show among the raced sign-ins' events. A fixed wait is the
 * only proof: events are published as each request ends, in no order between requests, so no later
 * event is surely seen after a late one.
 */
const NONE_LATE_MS = 200;

describe('sign-in rules over HTTP', function () {
  this.timeout(60_000);
  let w: SignInWorld;

  before(async () => {
    w = await SignInWorld.start();
  });
  after(() => w?.stop());

  describe('step-up', () => {
    let p: Place;
    let accountId: string;
    let secret: string;
    const browser = () => w.person('198.51.100.10');
    let alice: ReturnType<typeof browser>;

    before(async () => {
      p = await w.place('stepup', { policy: 'optional' });
      accountId = await w.account(p, 'testy-step');
      alice = browser();
    });

    it('a password-only session asked for acr mfa proves the second factor alone', async () => {
      const signIn = await w.start(p, alice);
      let page = await w.password(alice, signIn.answer, 'testy-step');
      expectPage(page, 'Set up two-step verification');
      page = await w.submit(alice, page, 'enrol/skip', {});
      const first = await signIn.finish(page);
      expect(first.amr).to.deep.equal(['pwd']);
      expect(first.acr).to.equal(ACR.single);

      secret = (await enrolTotp(w.admin(), { community: p.name, username: 'testy-step' }))
        .totpSecret;
      const stepUp = await w.start(p, alice, { acr_values: ACR.mfa });
      expectPage(stepUp.answer, 'Two-step verification');
      expect(stepUp.answer.text).to.contain('asks you to confirm it is you');
      expect(stepUp.answer.text).not.to.contain('name="password"');
      const code = await w.code(accountId, secret);
      const claims = await stepUp.finish(await w.submit(alice, stepUp.answer, 'totp', { code }));
      expect(claims.sub).to.equal(first.sub);
      expect(claims.acr).to.equal(ACR.mfa);
      expect(claims.amr).to.include.members(['pwd', 'otp', 'mfa']);
    });

    it('max_age shorter than the session asks for the second factor alone; auth_time moves on', async () => {
      await w.agePast(accountId, 120);
      const before = Math.floor(Date.now() / 1000) - 60;
      const again = await w.start(p, alice, { max_age: '60' });
      expectPage(again.answer, 'Two-step verification');
      expect(again.answer.text).not.to.contain('name="password"');
      const code = await w.code(accountId, secret);
      const claims = await again.finish(await w.submit(alice, again.answer, 'totp', { code }));
      expect(claims.auth_time).to.be.greaterThan(before);
      expect(claims.amr).to.include.members(['otp', 'mfa']);
    });

    // OpenID Connect Core 3.1.2.1: "max_age=0 is equivalent to prompt=login" (oidc-provider
    // turns the one into the other), and prompt=login asks for the password again
    for (const [what, extra] of [
      ['prompt=login', { prompt: 'login' }],
      ['max_age=0', { max_age: '0' }],
    ] as const) {
      it(`${what} shows the password page, even to a session with two factors`, async () => {
        const again = await w.start(p, alice, extra);
        expectPage(again.answer, 'Sign in');
        const page = await w.password(alice, again.answer, 'testy-step');
        expectPage(page, 'Two-step verification');
        const code = await w.code(accountId, secret);
        const claims = await again.finish(await w.submit(alice, page, 'totp', { code }));
        expect(claims.amr).to.include.members(['pwd', 'otp', 'mfa']);
      });
    }
  });

  describe('sessions made before a policy or a recovery', () => {
    let strict: Place;
    let recovered: Place;

    before(async () => {
      strict = await w.place('strict', { policy: 'optional' });
      recovered = await w.place('recover', { policy: 'off' });
    });

    it('a password-only session from before the policy became required gets no code without a second factor', async () => {
      await w.account(strict, 'testy-old-session');
      const bob = w.person('198.51.100.20');
      const signIn = await w.start(strict, bob);
      const page = await w.password(bob, signIn.answer, 'testy-old-session');
      expect((await signIn.finish(await w.submit(bob, page, 'enrol/skip', {}))).amr).to.deep.equal([
        'pwd',
      ]);

      await setMfaPolicy(w.admin(), { community: strict.name, policy: 'required', factors: [] });
      w.oauth.settingsClock.advance(SETTINGS_CACHE_MS); // the service's copy of the settings runs out
      const again = await w.start(strict, bob);
      expect(again.answer.location).to.equal(undefined);
      // the session alone proves no factor now: enrolling one asks for the password first (a
      // stolen session cookie must not enrol its own TOTP)
      expectPage(again.answer, 'Sign in');
      const enrol = await w.password(bob, again.answer, 'testy-old-session');
      expectPage(enrol, 'Set up two-step verification');
      expect(enrol.text).not.to.contain('enrol/skip');
      expect((await w.submit(bob, enrol, 'enrol/skip', {})).status).to.equal(400);
      const { page: codes } = await w.enrolTotp(bob, enrol);
      const claims = await again.finish(await w.submit(bob, codes, 'continue', {}));
      expect(claims.amr).to.include.members(['pwd', 'otp', 'mfa']);
    });

    it('after reset-factors, and after reset-password, a session signs in again', async () => {
      const accountId = await w.account(recovered, 'testy-recovered');
      const carol = w.person('198.51.100.21');
      const signIn = await w.start(recovered, carol);
      await signIn.finish(await w.password(carol, signIn.answer, 'testy-recovered'));
      const silent = await w.start(recovered, carol);
      await silent.finish(silent.answer); // the session alone gives a code

      await w.agePast(accountId, 5);
      await resetFactors(w.admin(), { community: recovered.name, username: 'testy-recovered' });
      const afterFactors = await w.start(recovered, carol);
      expectPage(afterFactors.answer, 'Sign in');
      await afterFactors.finish(await w.password(carol, afterFactors.answer, 'testy-recovered'));

      await w.agePast(accountId, 5);
      const reset = await resetPassword(w.admin(), {
        community: recovered.name,
        username: 'testy-recovered',
      });
      w.typed.add(reset.password);
      const afterPassword = await w.start(recovered, carol);
      expectPage(afterPassword.answer, 'Sign in');
      const old = await w.password(carol, afterPassword.answer, 'testy-recovered');
      expect(old.status).to.equal(401);
      const page = await w.password(carol, old, 'testy-recovered', reset.password);
      expect((await afterPassword.finish(page)).amr).to.deep.equal(['pwd']);
    });

    it('a recovery in the same second as the sign-in still ends the session', async () => {
      const accountId = await w.account(recovered, 'testy-same-second');
      const dave = w.person('198.51.100.22');
      const signIn = await w.start(recovered, dave);
      await signIn.finish(await w.password(dave, signIn.answer, 'testy-same-second'));
      // the change in the last millisecond of the second the session began in: auth_time
      // has whole seconds, so nothing says the sign-in came after it
      await w.db.raw(
        `UPDATE oauth.accounts SET credentials_changed_at = (
           SELECT to_timestamp((payload->>'loginTs')::bigint) + interval '999 milliseconds'
           FROM oauth.oidc_models WHERE model = 'Session' AND payload->>'accountId' = ?)
         WHERE account_id = ?`,
        [accountId, accountId],
      );
      const again = await w.start(recovered, dave);
      expectPage(again.answer, 'Sign in');
      // and signing in again right away is not asked again (the new session is no older)
      await again.finish(await w.password(dave, again.answer, 'testy-same-second'));
    });

    it('the forms after the password are a 400 before it, never a sign-in', async () => {
      await w.account(strict, 'testy-no-step');
      for (const [path, form] of [
        ['totp', { code: '123456' }],
        ['recovery', { recovery_code: 'ABCDE-FGHJK' }],
        ['second-factor/passkey', { credential: '{}' }],
        ['enrol/totp', { code: '123456' }],
        ['enrol/passkey', { credential: '{}' }],
        ['enrol/skip', {}],
        ['continue', {}],
      ] as const) {
        const eve = w.person('198.51.100.23');
        const { answer } = await w.start(strict, eve);
        const refused = await w.submit(eve, answer, path, form);
        expect(refused.status, `${path}: ${refused.text}`).to.equal(400);
        expect(refused.location, path).to.equal(undefined);
      }
    });
  });

  describe('second-factor codes', () => {
    let p: Place;
    let accountId: string;
    let secret: string;
    let recovery: string[];

    before(async () => {
      p = await w.place('codes', { policy: 'required' });
      accountId = await w.account(p, 'testy-codes');
      const browser = w.person('198.51.100.30');
      const signIn = await w.start(p, browser);
      const page = await w.password(browser, signIn.answer, 'testy-codes');
      ({ secret, recovery } = await w.enrolTotp(browser, page));
      expect(recovery).to.have.length(10);
      await signIn.finish(await w.submit(browser, page, 'continue', {}));
    });

    /** A new browser at the second-factor page of a sign-in of testy-codes. */
    async function atSecondFactor(address = '198.51.100.31') {
      const browser = w.person(address);
      const signIn = await w.start(p, browser);
      const page = await w.password(browser, signIn.answer, 'testy-codes');
      expectPage(page, 'Two-step verification');
      return { browser, signIn, page };
    }

    it('five wrong codes end the step: start again', async () => {
      const { browser, page } = await atSecondFactor();
      for (let wrong = 1; wrong < 5; wrong++) {
        const again = await w.submit(browser, page, 'totp', { code: '000000' });
        expect(again.status).to.equal(401);
        expect(alertOf(again.text)).to.match(/That code is not right/);
      }
      const ended = await w.submit(browser, page, 'totp', { code: '000000' });
      expect(ended.status).to.equal(401);
      expect(ended.text).to.contain('Too many wrong codes');
      const code = await w.code(accountId, secret);
      expect((await w.submit(browser, page, 'totp', { code })).status).to.equal(400);
    });

    it('a recovery code signs in once, however it is typed', async () => {
      const first = await atSecondFactor();
      const screen = await first.browser.go(`${here(first.page)}?screen=recovery`, '');
      expectPage(screen, 'Recovery code');
      const typed = recovery[0]!.toLowerCase().replace('-', ' ');
      const page = await w.submit(first.browser, screen, 'recovery', { recovery_code: typed });
      expect((await first.signIn.finish(page)).amr).to.include.members(['pwd', 'mfa']);

      const second = await atSecondFactor();
      const again = await w.submit(second.browser, second.page, 'recovery', {
        recovery_code: recovery[0]!,
      });
      expect(again.status).to.equal(401);
      expect(alertOf(again.text)).to.match(/recovery code is not right, or it was already used/);
    });

    it('a TOTP code is good once; typed with a space it counts', async () => {
      const code = await w.code(accountId, secret);
      const first = await atSecondFactor();
      const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
      const page = await w.submit(first.browser, first.page, 'totp', { code: spaced });
      expect((await first.signIn.finish(page)).amr).to.include.members(['pwd', 'otp', 'mfa']);

      const second = await atSecondFactor();
      const replayed = await w.submit(second.browser, second.page, 'totp', { code });
      expect(replayed.status).to.equal(401);
      expect(alertOf(replayed.text)).to.match(/already used/);
    });

    it('a step ends with its sign-in: its forms are a 400 afterwards', async () => {
      const { browser, page } = await atSecondFactor();
      const done = await browser.request(`${here(page)}/totp`, {
        form: { code: await w.code(accountId, secret) },
      });
      expect(done.status).to.equal(303);
      // before the browser follows back to the application, and after
      for (const path of ['totp', 'recovery']) {
        const field = path === 'totp' ? 'code' : 'recovery_code';
        const value = path === 'totp' ? await w.code(accountId, secret) : recovery[1]!;
        const again = await w.submit(browser, page, path, { [field]: value });
        expect(again.status, path).to.equal(400);
      }
      await browser.follow(done, 'https://rp.example.test/');
      const late = await w.submit(browser, page, 'totp', { code: await w.code(accountId, secret) });
      expect(late.status).to.equal(400);
    });

    it("another browser cannot drive a sign-in's second factor", async () => {
      const { browser, signIn, page } = await atSecondFactor();
      const code = await w.code(accountId, secret);
      const stranger = w.person('198.51.100.32');
      expect((await w.submit(stranger, page, 'totp', { code })).status).to.equal(400);
      // nor with a sign-in of its own under way
      await w.start(p, stranger);
      expect((await w.submit(stranger, page, 'totp', { code })).status).to.equal(400);
      const mine = await w.submit(browser, page, 'totp', { code });
      expect((await signIn.finish(mine)).amr).to.include('otp');
    });
  });

  describe('second-factor throttle', () => {
    let p: Place;
    let accountId: string;
    let secret: string;

    before(async () => {
      p = await w.place('sf-lock', {
        policy: 'optional',
        limits: { freeFailures: '1', baseDelaySeconds: '0', lockAfter: '3', lockMinutes: '5' },
      });
      accountId = await w.account(p, 'testy-sf-lock');
      secret = (await enrolTotp(w.admin(), { community: p.name, username: 'testy-sf-lock' }))
        .totpSecret;
    });

    async function secondFactor(address: string) {
      const browser = w.person(address);
      const signIn = await w.start(p, browser);
      const page = await w.password(browser, signIn.answer, 'testy-sf-lock');
      expectPage(page, 'Two-step verification');
      return { browser, signIn, page };
    }

    it('wrong codes lock the second factor from one address, not from another; unlock lifts it', async () => {
      const attacker = await secondFactor('203.0.113.50');
      for (let wrong = 1; wrong <= 3; wrong++) {
        const answer = await w.submit(attacker.browser, attacker.page, 'totp', { code: '000000' });
        expect(answer.status, `wrong code ${wrong}`).to.equal(401);
      }
      const again = await secondFactor('203.0.113.50');
      const code = await w.code(accountId, secret);
      const locked = await w.submit(again.browser, again.page, 'totp', { code });
      expect(locked.status).to.equal(429);
      expect(Number(locked.headers.get('retry-after'))).to.be.greaterThan(200);
      expect(alertOf(locked.text)).to.match(/paused until \d\d:\d\d/);

      const owner = await secondFactor('192.0.2.60');
      const page = await w.submit(owner.browser, owner.page, 'totp', { code });
      expect((await owner.signIn.finish(page)).amr).to.include('mfa');

      const unlocked = await unlockAccount(w.admin(), {
        community: p.name,
        username: 'testy-sf-lock',
      });
      expect(unlocked).to.deep.equal({ unlocked: true, wasLocked: true });
      const after = await w.submit(again.browser, again.page, 'totp', {
        code: await w.code(accountId, secret),
      });
      expect((await again.signIn.finish(after)).amr).to.include('mfa');
      const events = await w.eventsOf(p.id, (all) =>
        all.some((e) => e.eventName === 'E_OAUTH_ACCOUNT_LOCKED'),
      );
      const lock = events.find((e) => e.eventName === 'E_OAUTH_ACCOUNT_LOCKED');
      expect(lock?.data).to.include({ sub: accountId, scope: 'address' });
    });

    it('a username spelled like the throttle of second factors does not count against it', async () => {
      const address = '203.0.113.51';
      const attacker = w.person(address);
      const { answer } = await w.start(p, attacker);
      for (let guess = 0; guess < 4; guess++)
        await w.password(attacker, answer, `\u0000second-factor:${accountId}`, `guess-${guess}`);
      const owner = await secondFactor(address);
      const code = await w.code(accountId, secret);
      const page = await w.submit(owner.browser, owner.page, 'totp', { code });
      expect((await owner.signIn.finish(page)).amr).to.include('mfa');
    });
  });

  describe('brute force', () => {
    let p: Place;
    let accountId: string;

    before(async () => {
      p = await w.place('brute', {
        policy: 'off',
        limits: {
          freeFailures: '1',
          baseDelaySeconds: '1',
          maxDelaySeconds: '60',
          lockAfter: '5',
          lockMinutes: '1',
          accountFreeFailures: '1000',
          addressFreeFailures: '1000',
        },
      });
      accountId = await w.account(p, 'testy-brute');
    });

    it('delays grow; one over 3 s is a 429 with Retry-After; the fifth failure locks the address', async () => {
      const attacker = w.person('203.0.113.7');
      const { answer } = await w.start(p, attacker);
      const guess = (n: number) => w.password(attacker, answer, 'testy-brute', `guess-${n}`);
      for (const n of [1, 2]) {
        const wrong = await guess(n);
        expect(wrong.status).to.equal(401);
        expect(alertOf(wrong.text)).to.equal('Wrong username or password.');
      }
      expect(await w.lastPairDelay(p)).to.equal(1);
      const started = Date.now();
      expect((await guess(3)).status).to.equal(401); // the server waited the second out
      expect(Date.now() - started).to.be.at.least(900);
      expect(await w.lastPairDelay(p)).to.equal(2);
      await w.skipDelays(p);
      expect((await guess(4)).status).to.equal(401);
      expect(await w.lastPairDelay(p)).to.equal(4);

      const slowed = await guess(5);
      expect(slowed.status).to.equal(429);
      expect(Number(slowed.headers.get('retry-after'))).to.be.within(4, 5);
      expect(alertOf(slowed.text)).to.match(/^Too many attempts. Wait [45] seconds/);
      await w.skipDelays(p);
      for (const secret of ['guess-6', PASSWORD]) {
        const locked = await w.password(attacker, answer, 'testy-brute', secret);
        expect(locked.status).to.equal(429);
        expect(Number(locked.headers.get('retry-after'))).to.be.within(50, 60);
        expect(alertOf(locked.text)).to.match(/paused until \d\d:\d\d \(UTC\)/);
      }

      const owner = w.person('192.0.2.77');
      const signIn = await w.start(p, owner);
      expect(
        (await signIn.finish(await w.password(owner, signIn.answer, 'testy-brute'))).sub,
      ).to.equal(accountId);
    });

    /** The answers a run of guesses gets, digits left out; delays skipped but where said. */
    async function answersTo(username: string, address: string) {
      const browser = w.person(address);
      const { answer } = await w.start(p, browser);
      const seen: string[] = [];
      const note = (a: Answer) =>
        seen.push(
          `${a.status} ${a.headers.has('retry-after')} ${(alertOf(a.text) ?? '').replace(/\d/g, '#')}`,
        );
      for (let n = 1; n <= 3; n++) {
        note(await w.password(browser, answer, username, `guess-${n}`));
        await w.skipDelays(p);
      }
      note(await w.password(browser, answer, username, 'guess-4'));
      note(await w.password(browser, answer, username, 'guess-5')); // 4 s to wait: a 429
      await w.skipDelays(p);
      note(await w.password(browser, answer, username, 'guess-5')); // the fifth failure locks
      note(await w.password(browser, answer, username, PASSWORD));
      return seen;
    }

    it('an unknown username gets the same answers, delays and lock as a known one', async () => {
      await w.account(p, 'testy-brute-known');
      const known = await answersTo('testy-brute-known', '203.0.113.8');
      const unknown = await answersTo('testy-brute-nobody', '203.0.113.9');
      expect(unknown).to.deep.equal(known);
      expect(known.filter((a) => a.startsWith('429'))).to.have.length(3);
    });

    it('20 guesses at once get no more password checks than lockAfter', async () => {
      const race = await w.place('race', {
        policy: 'off',
        limits: { freeFailures: '2', baseDelaySeconds: '0', lockAfter: '4', lockMinutes: '1' },
      });
      const raced = await w.account(race, 'testy-race');
      const attacker = w.person('203.0.113.10');
      const { answer } = await w.start(race, attacker);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          w.password(attacker, answer, 'testy-race', `race-guess-${n}`),
        ),
      );
      // three wrong passwords, the fourth locks (a 429 too), the rest never checked
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).to.have.length(3);
      expect(statuses.filter((s) => s === 429)).to.have.length(17);
      const checked = (events: typeof w.events) =>
        events.filter((e) => e.data.sub === raced && e.data.reason === 'invalid_credentials');
      const events = await w.eventsOf(race.id, (all) => checked(all).length >= 4);
      await new Promise((resolve) => setTimeout(resolve, NONE_LATE_MS));
      expect(checked(await w.eventsOf(race.id, () => true))).to.have.length(4);
      expect(events.filter((e) => e.eventName === 'E_OAUTH_ACCOUNT_LOCKED')).to.have.length(1);
    });

    it('publishes failures and locks with the account id only: no username, password or address', async () => {
      const events = await w.eventsOf(
        p.id,
        (all) => all.filter((e) => e.eventName === 'E_OAUTH_ACCOUNT_LOCKED').length >= 3,
      );
      const locks = events.filter((e) => e.eventName === 'E_OAUTH_ACCOUNT_LOCKED');
      expect(locks.map((e) => e.data.sub ?? 'none')).to.have.members([
        accountId,
        'none',
        locks[1]!.data.sub ?? 'none',
      ]);
      expect(locks.filter((e) => e.data.sub === undefined)).to.have.length(1); // the unknown name
      const reasons = new Set(
        events.filter((e) => e.eventName === 'E_OAUTH_LOGIN_FAILED').map((e) => e.data.reason),
      );
      expect([...reasons]).to.include.members(['invalid_credentials', 'throttled', 'locked']);
      const published = JSON.stringify(w.events).toLowerCase();
      for (const value of [...w.typed, '203.0.113.', '192.0.2.', '198.51.100.'])
        expect(published, value).not.to.contain(value.toLowerCase());
    });

    it('writes no username or password in its log lines', () => {
      expect(w.capture.lines.length).to.be.greaterThan(50);
      const lines = w.capture.lines.join('\n').toLowerCase();
      for (const value of w.typed) expect(lines, value).not.to.contain(value.toLowerCase());
    });
  });

  describe('at the end', () => {
    it('every page the suite was shown is a whole page, never a 5xx', () => {
      expect(w.pages.length).to.be.greaterThan(100);
      expect(w.pages.filter((page) => page.status >= 500)).to.deep.equal([]);
      expect(w.pages.map((page) => headingOf(page.text))).not.to.include(undefined);
    });
  });
});
