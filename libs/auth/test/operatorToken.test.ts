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
  reviewer: { sub: 'op-1', preferred_username: 'testy-reviewer', roles: ['reviewer'], communities: [COMMUNITY] }, // prettier-ignore
  everywhere: { sub: 'op-2', preferred_username: 'testy-admin', roles: ['admin', 'superuser'], communities: [] }, // prettier-ignore
  viewer: { sub: 'op-3', roles: ['viewer'], communities: [] },
};

describe('auth: operator bearer tokens', function () {
  this.timeout(20_000);
  let issuer: Server;
  let calls: string[];
  let away = false;
  let tokens: OperatorTokens;
  let app: RunningServer;

  before(async () => {
    calls = [];
    issuer = createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      calls.push(token);
      if (away) return void res.writeHead(502).end();
      const claims = CLAIMS[token];
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
    expect(await mine.json()).to.deep.equal({ sub: 'op-1', username: 'testy-reviewer', roles: ['reviewer'], communities: [COMMUNITY] }); // prettier-ignore
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
