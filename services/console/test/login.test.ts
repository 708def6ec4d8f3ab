// Login through the operators' issuer (password + TOTP), the session the console keeps, and
// logout that ends it at the console and the issuer: a replayed cookie gets 401. Where a login may
// send the browser back to (only the web app), the claims a login needs (roles and communities),
// and how a live session follows the issuer's roles: re-read from userinfo at most every minute.
import { expect } from 'chai';
import type * as client from 'openid-client';
import { safeReturnPath } from '../src/login/loginState.ts';
import { claimsOf } from '../src/login/tokenSet.ts';
import { HttpBrowser } from '@idv/testing/httpBrowser';
import { ConsoleWorld, type TestOperator } from '@idv/testing/consoleWorld';

/** An ID token of the operators' issuer with `over` merged in (undefined: claim left out). */
const idToken = (over: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries({
      iss: 'http://issuer.test',
      sub: 'acc-1',
      aud: 'c',
      iat: 1,
      exp: 2,
      preferred_username: 'testy',
      roles: ['viewer'],
      communities: [],
      ...over,
    }).filter(([, value]) => value !== undefined),
  ) as client.IDToken;

describe('console login', function () {
  this.timeout(120_000);
  let w: ConsoleWorld;
  before(async () => {
    w = await ConsoleWorld.start();
  });
  after(() => w?.stop());

  /** Where the continue page after a login started with `login` sends the browser. */
  const continuesTo = async (browser: HttpBrowser, login: string) => {
    const callback = `${w.url}/auth/callback`;
    const back = await browser.go(`${w.url}${login}`, callback);
    expect(back.location, `${back.status} ${back.text.slice(0, 200)}`).to.match(
      /\/auth\/callback\?/,
    );
    const page = await browser.request(back.location!);
    expect(page.status, page.text.slice(0, 200)).to.equal(200);
    return /<meta http-equiv="refresh" content="0;url=([^"]*)">/.exec(page.text)?.[1];
  };

  it('signs an operator in, keeps the tokens on the server and logs out', async () => {
    const op = await w.operator(['reviewer']);
    const browser = await w.signIn(op);
    const cookie = /__Host-idv-console=[A-Za-z0-9_-]{43}(?=;|$)/.exec(
      browser.cookiesFor(`${w.url}/api/me`),
    )?.[0];
    expect(cookie).to.be.a('string');
    const me = await browser.request(`${w.url}/api/me`);
    expect(me.status, me.text).to.equal(200);
    expect(JSON.parse(me.text)).to.deep.include({
      username: op.username,
      roles: ['reviewer'],
      communities: [],
    });
    const out = await browser.request(`${w.url}/auth/logout`, {
      method: 'POST',
      headers: { origin: w.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).to.equal(303);
    expect(out.location).to.match(/\/community\/operators\/v1\/logout\?/);
    const replay = await fetch(`${w.url}/api/me`, { headers: { cookie: cookie! } });
    expect(replay.status).to.equal(401);
  });

  it('sends the browser back only to the web app, never to a route of the server', async () => {
    const table: [unknown, string][] = [
      ['/', '/'],
      ['/#/queue', '/#/queue'],
      ['/#/case/c-1/case-1', '/#/case/c-1/case-1'],
      ['/api/audit/export?format=csv', '/'],
      ['/auth/logout', '/'],
      ['/#', '/'],
      ['/?x=1#/queue', '/'],
      ['//evil.example/#/', '/'],
      ['/#/\\evil', '/'],
      ['/#/a b', '/'],
      [['/#/queue'], '/'],
      [undefined, '/'],
    ];
    for (const [given, expected] of table)
      expect(safeReturnPath(given), String(given)).to.equal(expected);
    // an auditor with a live session at the issuer follows a link someone else made
    const browser = await w.signIn(await w.operator(['auditor']));
    const exportLink = `/auth/login?returnTo=${encodeURIComponent('/api/audit/export?format=csv')}`;
    expect(await continuesTo(browser, exportLink)).to.equal('/');
    expect(
      await continuesTo(browser, `/auth/login?returnTo=${encodeURIComponent('/#/audit')}`),
    ).to.equal('/#/audit');
  });

  it('refuses a login whose ID token names no communities (absent is not "every community")', () => {
    expect(claimsOf(idToken({})).communities).to.deep.equal([]);
    expect(claimsOf(idToken({ communities: ['c-1'] })).communities).to.deep.equal(['c-1']);
    for (const communities of [undefined, null, 'c-1', {}, [1]])
      expect(() => claimsOf(idToken({ communities })), JSON.stringify(communities)).to.throw(
        /communities/,
      );
    expect(() => claimsOf(idToken({ roles: ['nobody'] }))).to.throw(/no operator role/);
  });

  describe('a live session follows the roles the issuer holds', () => {
    /** The session's roles and communities are taken as checked `seconds` ago. */
    const checkedAgo = (op: TestOperator, seconds: number) =>
      w
        .db('console.sessions')
        .where({ username: op.username })
        .update({ claims_checked_at: w.db.raw(`now() - make_interval(secs => ${seconds})`) });
    const grant = (op: TestOperator, roles: string[], communities: string[] = []) =>
      w
        .db('oauth.operator_roles')
        .where({ account_id: op.accountId })
        .update({ roles, communities });
    const get = async (browser: HttpBrowser, path: string) =>
      (await browser.request(`${w.url}${path}`)).status;

    it('demotes within a minute: a role or community taken away is refused after the next re-read', async () => {
      const op = await w.operator(['admin']);
      const browser = await w.signIn(op);
      const community = w.platform.community.id;
      expect(await get(browser, '/api/audit')).to.equal(200);
      await grant(op, ['viewer']);
      expect(await get(browser, '/api/audit'), 'read again at most once a minute').to.equal(200);
      await checkedAgo(op, 61);
      const answers = await Promise.all([1, 2, 3, 4].map(() => get(browser, '/api/audit')));
      expect(answers).to.deep.equal([403, 403, 403, 403]);
      const me = JSON.parse((await browser.request(`${w.url}/api/me`)).text) as { roles: string[] };
      expect(me.roles).to.deep.equal(['viewer']);
      expect(await get(browser, `/api/sessions?community=${community}`)).to.equal(200);
      await grant(op, ['viewer'], [w.platform.otherCommunity.id]);
      await checkedAgo(op, 61);
      expect(await get(browser, `/api/sessions?community=${community}`)).to.equal(403);
    });

    it('logs out an operator whose grant is gone or whose token the issuer revoked', async () => {
      const removed = await w.operator(['viewer']);
      const removedBrowser = await w.signIn(removed);
      await w.db('oauth.operator_roles').where({ account_id: removed.accountId }).delete();
      await checkedAgo(removed, 61);
      expect(await get(removedBrowser, '/api/me')).to.equal(401);
      expect(await w.db('console.sessions').where({ username: removed.username })).to.have.length(
        0,
      );

      const revoked = await w.operator(['viewer']);
      const revokedBrowser = await w.signIn(revoked);
      await w
        .db('oauth.oidc_models')
        .where({ model: 'AccessToken' })
        .whereRaw("payload->>'accountId' = ?", [revoked.accountId])
        .delete();
      expect(await get(revokedBrowser, '/api/me'), 'until the next re-read').to.equal(200);
      await checkedAgo(revoked, 61);
      expect(await get(revokedBrowser, '/api/me')).to.equal(401);
      expect(await w.db('console.sessions').where({ username: revoked.username })).to.have.length(
        0,
      );
    });
  });
});
