// Operators' bearer tokens through a listening app: the userinfo endpoint of the operators' issuer
// is stood in for by a small server answering claims for fixed tokens (the real issuer is
// exercised by the review and console suites); cached answers, refusals, roles, communities.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, startHttpServer, type RunningServer } from '@idv/http';
import { createLogger, createMetricsRegistry } from '@idv/observability';
import {
  createOperatorTokens,
  fromParam,
  operatorOf,
  requireOperator,
  type OperatorTokens,
} from '../src/index.ts';

const COMMUNITY = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const CLAIMS: Record<string, Record<string, unknown>> = {
  reviewer: {
    sub: 'op-1',
    preferred_username: 'testy-reviewer',
    roles: ['reviewer'],
    communities: [COMMUNITY],
  },
  everywhere: {
    sub: 'op-2',
    preferred_username: 'testy-admin',
    roles: ['admin', 'superuser'],
    communities: [],
  },
  viewer: { sub: 'op-3', roles: ['viewer'], communities: [] },
  // an answer without the communities claim is no operator's (not "every community")
  listless: { sub: 'op-4', roles: ['admin'] },
  fresh: { sub: 'op-5', roles: ['admin'], communities: [], auth_time: 0 },
};

describe('auth: operator bearer tokens', function () {
  this.timeout(20_000);
  let issuer: Server;
  let calls: string[];
  let away = false;
  /** ms the stand-in waits before answering */
  let slowMs = 0;
  let tokens: OperatorTokens;
  let app: RunningServer;

  before(async () => {
    calls = [];
    issuer = createServer(async (req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      calls.push(token);
      if (away) return void res.writeHead(502).end();
      if (token === 'fresh') CLAIMS.fresh!.auth_time = Math.floor(Date.now() / 1000) - 60;
      if (token === 'stale')
        CLAIMS.stale = { ...CLAIMS.fresh, auth_time: Math.floor(Date.now() / 1000) - 600 };
      const claims = CLAIMS[token];
      if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
      res.writeHead(claims ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(claims ?? { error: 'invalid_token' }));
    });
    await new Promise<void>((ok) => issuer.listen(0, '127.0.0.1', ok));
    const port = (issuer.address() as AddressInfo).port;
    tokens = createOperatorTokens({ userinfoUrl: `http://127.0.0.1:${port}/v1/userinfo` });
    const guard = requireOperator(tokens, {
      roles: ['reviewer', 'admin'],
      community: fromParam('communityId'),
    });
    const recent = requireOperator(tokens, { roles: ['admin'], recentLoginMs: 300_000 });
    const http = createHttpApp({
      logger: createLogger({ service: 'test', level: 'silent' }),
      registry: createMetricsRegistry('test'),
      routes: [
        {
          method: 'GET',
          path: '/c/:communityId',
          guards: [guard],
          handler: (_req, res) => res.json(operatorOf(res)),
        },
        {
          method: 'POST',
          path: '/erase',
          jsonBody: false,
          guards: [recent],
          handler: (_req, res) => res.json({ erased: true }),
        },
      ],
    });
    app = await startHttpServer(http, 0, '127.0.0.1');
  });
  after(async () => {
    await app?.stop();
    issuer?.close();
  });

  const get = (community: string, authorization?: string) =>
    fetch(`${app.url}/c/${community}`, { headers: authorization ? { authorization } : {} });

  it('lets an operator with a role of the rule act on their community, roles it does not know dropped', async () => {
    const mine = await get(COMMUNITY, 'Bearer reviewer');
    expect(mine.status).to.equal(200);
    expect(await mine.json()).to.deep.equal({
      sub: 'op-1',
      username: 'testy-reviewer',
      roles: ['reviewer'],
      communities: [COMMUNITY],
    });
    const any = await get(OTHER, 'Bearer everywhere');
    expect(((await any.json()) as { roles: string[] }).roles).to.deep.equal(['admin']);
  });

  it("refuses another community's operator, a role outside the rule, no token and an unknown one", async () => {
    const other = await get(OTHER, 'Bearer reviewer');
    expect(other.status).to.equal(403);
    expect(((await other.json()) as { message: string }).message).to.match(/community/);
    expect((await get(COMMUNITY, 'Bearer viewer')).status).to.equal(403);
    expect((await get(COMMUNITY)).status).to.equal(401);
    expect((await get(COMMUNITY, 'Bearer nobody')).status).to.equal(401);
    expect((await get(COMMUNITY, 'Basic cmV2aWV3ZXI6eA==')).status).to.equal(401);
    expect((await get(COMMUNITY, 'Bearer listless')).status).to.equal(401);
  });

  it('asks for a sign-in of the last minutes where the rule says so (RFC 9470 step-up)', async () => {
    const erase = (token: string) =>
      fetch(`${app.url}/erase`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await erase('fresh')).status).to.equal(200);
    const stale = await erase('stale');
    expect(stale.status).to.equal(401);
    expect(stale.headers.get('www-authenticate')).to.equal(
      'Bearer error="insufficient_user_authentication", max_age=300',
    );
    // no auth_time said: not recent
    expect((await erase('everywhere')).status).to.equal(401);
  });

  it('answers 503, not a refusal or a 500, while the issuer is away or too many tokens are being checked', async () => {
    away = true;
    const res = await get(COMMUNITY, 'Bearer away-token');
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    away = false;
    const capped = createOperatorTokens({
      userinfoUrl: `${issuerUrl(issuer)}/v1/userinfo`,
      maxInFlight: 2,
    });
    slowMs = 300;
    const answers = await Promise.allSettled(['a1', 'a2', 'a3', 'a1'].map((t) => capped.verify(t)));
    slowMs = 0;
    expect(answers.map((a) => a.status)).to.deep.equal([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(
      ((answers[2] as PromiseRejectedResult).reason as { statusCode: number }).statusCode,
    ).to.equal(503);
  });

  it('keeps known operators while made-up tokens come and go', async () => {
    const small = createOperatorTokens({
      userinfoUrl: `${issuerUrl(issuer)}/v1/userinfo`,
      maxEntries: 2,
      maxRefusals: 3,
    });
    expect((await small.verify('reviewer'))?.sub).to.equal('op-1');
    for (let i = 0; i < 20; i++) expect(await small.verify(`made-up-${i}`)).to.equal(undefined);
    calls.length = 0;
    expect((await small.verify('reviewer'))?.sub).to.equal('op-1');
    expect(calls).to.deep.equal([]);
  });

  it('asks the issuer once per token while its answer is fresh, and again once the issuer is back', async () => {
    calls.length = 0;
    await Promise.all([1, 2, 3].map(() => get(COMMUNITY, 'Bearer everywhere')));
    expect(calls).to.deep.equal([]); // cached by the first test
    away = true;
    const fresh = createOperatorTokens({ userinfoUrl: `${issuerUrl(issuer)}/v1/userinfo` });
    await fresh.verify('reviewer').then(
      () => expect.fail('an issuer that is away is not a refusal'),
      (err: Error) => expect(err.message).to.match(/502/),
    );
    away = false;
    expect((await fresh.verify('reviewer'))?.sub).to.equal('op-1');
    expect(calls.filter((c) => c === 'reviewer')).to.have.length(2);
  });
});

function issuerUrl(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
