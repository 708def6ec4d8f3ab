// Login through the operators' issuer (password + TOTP), the session the console keeps, and
// logout that ends it at the console and the issuer: a replayed cookie gets 401.
import { expect } from 'chai';
import { ConsoleWorld } from './consoleWorld.ts';

describe('console login', function () {
  this.timeout(120_000);
  let w: ConsoleWorld;
  before(async () => {
    w = await ConsoleWorld.start();
  });
  after(() => w?.stop());

  it('signs an operator in, keeps the tokens on the server and logs out', async () => {
    const op = await w.operator(['reviewer']);
    const browser = await w.signIn(op);
    const cookie = /__Host-idv-console=[A-Za-z0-9_-]{43}(?=;|$)/.exec(browser.cookiesFor(`${w.url}/api/me`))?.[0]; // prettier-ignore
    expect(cookie).to.be.a('string');
    const me = await browser.request(`${w.url}/api/me`);
    expect(me.status, me.text).to.equal(200);
    expect(JSON.parse(me.text)).to.deep.include({ username: op.username, roles: ['reviewer'], communities: [] }); // prettier-ignore
    const out = await browser.request(`${w.url}/auth/logout`, { method: 'POST', headers: { origin: w.url, 'sec-fetch-site': 'same-origin' } }); // prettier-ignore
    expect(out.status).to.equal(303);
    expect(out.location).to.match(/\/community\/operators\/v1\/logout\?/);
    const replay = await fetch(`${w.url}/api/me`, { headers: { cookie: cookie! } });
    expect(replay.status).to.equal(401);
  });
});
