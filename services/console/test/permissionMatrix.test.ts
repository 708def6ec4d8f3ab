// Every /api route × every role, plus no login, an operator of another community, cross-site
// writes and a replayed cookie after logout: each must be refused as the role matrix says (issue
// 28); and bad inputs, each a 400 naming what it breaks, never a 500. The docverify gateway is a
// stub here that answers 200 and keeps the bearer and path it was sent, so what is tested is the
// console's own decision (the gateway checks again on its side).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { OperatorRole } from '@idv/auth';
import { IdvClient } from '@idv/client';
import { ROUTE_ACCESS, type ApiRouteKey } from '../src/access/routeAccess.ts';
import { HttpBrowser } from '@idv/testing/httpBrowser';
import { ConsoleWorld } from '@idv/testing/consoleWorld';

const ROLES: OperatorRole[] = ['viewer', 'auditor', 'reviewer', 'senior_reviewer', 'admin'];
const UUID_ZERO = '00000000-0000-4000-8000-000000000000';

interface Call {
  key: ApiRouteKey;
  method: string;
  path: string;
  body?: string;
}

/** A concrete request for each route of the table, naming the world's community. */
function callsFor(community: string): Call[] {
  return (Object.keys(ROUTE_ACCESS) as ApiRouteKey[]).map((key) => {
    const [method, pattern] = key.split(' ') as [string, string];
    const path = pattern
      .replace(':communityId', community)
      .replace(':caseId', 'case-1')
      .replace(':name', 'front')
      .replace(/:(webhookId|verifierId|configId)/, UUID_ZERO)
      .replace(':deliveryId', 'msg_0');
    return { key, method, path, ...(method !== 'GET' ? { body: '{"verificationId":"x"}' } : {}) };
  });
}

async function stubGateway(): Promise<{
  server: Server;
  url: string;
  bearers: string[];
  paths: string[];
  /** answer the next erasure as a gateway judging the token's sign-in too old (RFC 9470) */
  stepUp: { next: boolean };
}> {
  const bearers: string[] = [];
  const paths: string[] = [];
  const stepUp = { next: false };
  const server = createServer((req, res) => {
    bearers.push(req.headers.authorization ?? '');
    paths.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (stepUp.next && req.url?.startsWith('/erasure/')) {
      stepUp.next = false;
      res.writeHead(401, {
        'www-authenticate': 'Bearer error="insufficient_user_authentication", max_age=300',
      });
      return void res.end('{"statusCode":401,"error":"Unauthorized","message":"stale"}');
    }
    res.end('{"stub":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bearers,
    paths,
    stepUp,
  };
}

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A same-origin request whose path goes out as written (fetch would resolve its dot segments). */
function rawRequest(url: string, method: string, path: string, cookie: string) {
  const { hostname, port } = new URL(url);
  const headers = {
    cookie,
    origin: url,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/json',
  };
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('console permission matrix', function () {
  this.timeout(180_000);
  let w: ConsoleWorld;
  let gateway: Awaited<ReturnType<typeof stubGateway>>;
  let calls: Call[];
  const browsers = new Map<string, HttpBrowser>();

  const send = (
    browser: HttpBrowser | undefined,
    call: Call,
    headers: Record<string, string> = {},
  ) => {
    const url = `${w.url}${call.path}${call.key.includes('export') ? '?format=jsonl' : ''}`;
    const init = {
      method: call.method,
      headers: {
        origin: w.url,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
        ...headers,
      },
      ...(call.body ? { body: call.body } : {}),
    };
    // the browser's form body goes out as JSON: the content-type header given wins
    if (browser)
      return browser.request(url, { ...init, ...(call.body ? { form: call.body } : {}) });
    return fetch(url, init).then(async (r) => ({ status: r.status, text: await r.text() }));
  };

  before(async () => {
    gateway = await stubGateway();
    w = await ConsoleWorld.start({ DOCVERIFY_INTERNAL_URL: gateway.url });
    calls = callsFor(w.platform.community.id);
    for (const role of ROLES) browsers.set(role, await w.signIn(await w.operator([role])));
    const elsewhere = await w.operator(ROLES, [w.platform.otherCommunity.id]);
    browsers.set('elsewhere', await w.signIn(elsewhere));
  });
  after(async () => {
    await w?.stop();
    gateway?.server.close();
  });

  it('answers every route to the roles the table names and refuses the others (403)', async () => {
    const wrong: string[] = [];
    for (const role of ROLES)
      for (const call of calls) {
        const answer = await send(browsers.get(role), call);
        const allowed = (ROUTE_ACCESS[call.key].roles as readonly string[]).includes(role);
        const ok = allowed
          ? answer.status < 500 && ![401, 403].includes(answer.status)
          : answer.status === 403;
        if (!ok) wrong.push(`${role} ${call.key}: ${answer.status} ${answer.text.slice(0, 120)}`);
      }
    expect(wrong).to.deep.equal([]);
    expect(gateway.bearers.length).to.be.greaterThan(0);
    expect(gateway.bearers.every((b) => /^Bearer \S+$/.test(b))).to.equal(true);
  });

  it('refuses every route without a session (401) and with a forged cookie', async () => {
    for (const call of calls) {
      expect((await send(undefined, call)).status, call.key).to.equal(401);
      const forged = await send(undefined, call, {
        cookie: '__Host-idv-console=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      });
      expect(forged.status, call.key).to.equal(401);
    }
  });

  it("refuses an operator of another community on this community's routes (403)", async () => {
    for (const call of calls.filter((c) => c.path.includes(w.platform.community.id))) {
      const answer = await send(browsers.get('elsewhere'), call);
      expect(answer.status, `${call.key} ${answer.text}`).to.equal(403);
    }
    const named = await send(browsers.get('elsewhere'), {
      key: 'GET /api/sessions',
      method: 'GET',
      path: `/api/sessions?community=${w.platform.community.id}`,
    });
    expect(named.status).to.equal(403);
    const communities = await browsers.get('elsewhere')!.request(`${w.url}/api/communities`);
    expect(JSON.parse(communities.text).items.map((c: { id: string }) => c.id)).to.deep.equal([
      w.platform.otherCommunity.id,
    ]);
  });

  it('refuses cross-site writes, whatever the role (403)', async () => {
    const admin = browsers.get('admin')!;
    for (const call of calls.filter((c) => c.method !== 'GET')) {
      for (const headers of [
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { origin: '' },
      ]) {
        const answer = await send(admin, call, headers);
        expect(answer.status, `${call.key} ${JSON.stringify(headers)}`).to.equal(403);
      }
    }
    const logout = await admin.request(`${w.url}/auth/logout`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(logout.status).to.equal(403);
  });

  it('asks for a recent login (401 reauthenticate) before erasure, secret reveal and edits', async () => {
    const admin = await w.signIn(await w.operator(['admin']));
    await w
      .db('console.sessions')
      .update({ auth_time: w.db.raw("now() - interval '6 minutes'") })
      .whereIn(
        'username',
        w.db('oauth.accounts').select('username').where('username', 'like', 'testy-admin-%'),
      );
    for (const call of calls.filter((c) => 'recentLogin' in ROUTE_ACCESS[c.key])) {
      const answer = await send(admin, call);
      expect(answer.status, call.key).to.equal(401);
      expect(JSON.parse(answer.text)).to.include({ error: 'reauthenticate' });
    }
    // the console's clock says recent, the gateway's judgement of the token says not: the same 401
    const fresh = await w.signIn(await w.operator(['admin']));
    const erasure = calls.find((c) => c.key === 'POST /api/erasure/community/:communityId')!;
    gateway.stepUp.next = true;
    const refused = await send(fresh, erasure);
    expect(refused.status).to.equal(401);
    expect(JSON.parse(refused.text)).to.include({ error: 'reauthenticate' });
  });

  it('answers bad inputs 400 with the error body, never 500', async () => {
    const admin = browsers.get('admin')!;
    const uuid = '0b6c1c57-3f2a-4c55-9a43-1d2b0c3e4f5a';
    const at = new Date().toISOString();
    // [path, the field the answer must name] for a 400; null: a good input that must answer 200
    const table: [string, string | null][] = [
      [`/api/audit?cursor=${cursor({ seq: 1.5 })}`, 'cursor'],
      [`/api/audit?cursor=${cursor({ seq: 0 })}`, 'cursor'],
      [`/api/audit?cursor=${cursor({ seq: -3 })}`, 'cursor'],
      [`/api/audit?cursor=${cursor({ seq: 2 ** 60 })}`, 'cursor'],
      [`/api/audit?cursor=${Buffer.from('{"seq":1e400}').toString('base64url')}`, 'cursor'],
      [`/api/audit?cursor=${cursor({ seq: 7 })}`, null],
      [`/api/sessions?cursor=${cursor({ at: 'x', id: 'y' })}`, 'cursor'],
      [`/api/sessions?cursor=${cursor({ at, id: 'y' })}`, 'cursor'],
      [`/api/sessions?cursor=${cursor({ at: 'x', id: uuid })}`, 'cursor'],
      [`/api/sessions?cursor=${cursor({ at: '-100000-01-01T00:00:00Z', id: uuid })}`, 'cursor'],
      [`/api/sessions?cursor=${cursor({ at, id: uuid })}`, null],
      ['/api/audit?from=-100000-01-01T00:00:00Z', 'from'],
      ['/api/audit?to=%2B275760-09-13T00:00:00Z', 'to'],
      ['/api/audit?from=0000-12-31T23:00:00Z', 'from'],
      ['/api/audit?to=9999-12-31T23:00:00-05:00', 'to'],
      ['/api/audit/export?format=jsonl&from=-100000-01-01T00:00:00Z', 'from'],
      ['/api/audit/export?format=csv&to=%2B010000-01-01T00:00:00Z', 'to'],
      ['/api/audit?from=0001-01-01T00:00:00Z&to=9999-12-31T00:00:00Z', null],
    ];
    const wrong: string[] = [];
    for (const [path, field] of table) {
      const answer = await admin.request(`${w.url}${path}`);
      const body = (
        answer.headers.get('content-type')?.startsWith('application/json')
          ? JSON.parse(answer.text)
          : {}
      ) as { statusCode?: number; message?: string };
      const ok =
        field === null
          ? answer.status === 200
          : answer.status === 400 && body.statusCode === 400 && !!body.message?.startsWith(field);
      if (!ok) wrong.push(`${path}: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('refuses a dot segment in a path the gateway would get (400), calling it not at all', async () => {
    const cookie = browsers.get('admin')!.cookiesFor(`${w.url}/api/me`);
    const community = w.platform.community.id;
    const sent = gateway.paths.length;
    for (const [method, path] of [
      ['GET', `/api/review/community/${community}/cases/%2e%2e`],
      ['GET', `/api/review/community/${community}/cases/..`],
      ['POST', `/api/review/community/${community}/cases/%2E%2e/claim`],
      ['POST', `/api/review/community/${community}/cases/./notes`],
      ['GET', `/api/review/community/${community}/cases/case-1/images/%2e%2e`],
    ]) {
      const answer = await rawRequest(w.url, method!, path!, cookie);
      expect(answer.status, `${method} ${path}: ${answer.text}`).to.equal(400);
      expect(JSON.parse(answer.text)).to.include({ statusCode: 400 });
    }
    expect(gateway.paths.slice(sent)).to.deep.equal([]);
  });

  it("shows viewers a verifier's connector by origin only; the admin's audited reveal shows it whole", async () => {
    const community = w.platform.community.id;
    const connectorUrl = 'http://127.0.0.1:9/tenant-7/hook?key=not-a-real-key';
    const docverify = new IdvClient({
      baseUrl: w.platform.services.docverify.url,
      licenseKey: w.platform.licences.service,
    });
    const made = await docverify.request<{ id: string }>(
      'PUT',
      `/verifier/community/${community}`,
      {
        name: 'Origin only',
        tag: 'origin-only',
        type: 'identity_data',
        connectorUrl,
        config: { apiKey: 'not-a-real-key' },
      },
    );
    expect(made.status, JSON.stringify(made.body)).to.be.oneOf([200, 201]);
    const listed = JSON.parse(
      (await browsers.get('viewer')!.request(`${w.url}/api/verifiers`)).text,
    ) as { items: { verifierId: string; connectorUrl: string }[] };
    const shown = listed.items.find((v) => v.verifierId === made.body.id);
    expect(shown?.connectorUrl).to.equal('http://127.0.0.1:9');
    const admin = await w.signIn(await w.operator(['admin']));
    const revealed = await admin.request(`${w.url}/api/verifiers/${made.body.id}/reveal`, {
      method: 'POST',
      headers: { origin: w.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(revealed.status, revealed.text).to.equal(200);
    expect(JSON.parse(revealed.text)).to.include({ connectorUrl });
  });

  it("refuses another community's operator on this community's verifiers and configs, found by id (403)", async () => {
    const community = w.platform.community;
    const docverify = new IdvClient({
      baseUrl: w.platform.services.docverify.url,
      licenseKey: w.platform.licences.service,
    });
    const verifier = await docverify.request<{ id: string }>(
      'PUT',
      `/verifier/community/${community.id}`,
      {
        name: 'Theirs',
        tag: 'theirs',
        type: 'identity_data',
        connectorUrl: 'http://127.0.0.1:9/identity',
        config: { apiKey: 'not-a-real-key' },
      },
    );
    const config = await docverify.request<{ id: string }>(
      'PUT',
      `/verificationConfig/community/${community.id}`,
      { tenantId: community.tenantId, tag: 'theirs', person_verify: [{ verifier: 'theirs' }] },
    );
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
    const elsewhere = browsers.get('elsewhere')!;
    const sent = gateway.paths.length;
    const write = {
      origin: w.url,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    };
    for (const [method, path] of [
      ['PATCH', `/api/verifiers/${verifier.body.id}`],
      ['PATCH', `/api/configs/${config.body.id}`],
      ['POST', `/api/verifiers/${verifier.body.id}/reveal`],
    ] as const) {
      const answer = await elsewhere.request(`${w.url}${path}`, {
        method,
        headers: write,
        ...(method === 'PATCH' ? { form: '{"name":"Mine now"}' } : {}),
      });
      expect(answer.status, `${method} ${path} ${answer.text}`).to.equal(403);
    }
    // nothing reached the gateway
    expect(gateway.paths.slice(sent)).to.deep.equal([]);
  });

  it('refuses a cookie replayed after logout (401)', async () => {
    const viewer = await w.signIn(await w.operator(['viewer']));
    const cookie = /__Host-idv-console=[^;]+/.exec(viewer.cookiesFor(`${w.url}/api/me`))![0];
    const out = await viewer.request(`${w.url}/auth/logout`, {
      method: 'POST',
      headers: { origin: w.url },
    });
    expect(out.status).to.equal(303);
    for (const call of calls.slice(0, 4))
      expect((await send(undefined, call, { cookie })).status, call.key).to.equal(401);
  });
});
