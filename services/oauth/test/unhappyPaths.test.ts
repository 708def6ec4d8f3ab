// Bad input at every oauth route, through a listening service and its database: each case names
// what it breaks and the clear 4xx it must get. OAuth endpoints answer {error, error_description}
// as oidc-provider does; the authorize endpoint without a trusted redirect_uri and our own routes
// answer the platform body {statusCode, error, message}.
import { request } from 'node:http';
import { expect } from 'chai';
import { createOauthClient } from '../src/admin.ts';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';
const FORM = 'application/x-www-form-urlencoded';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http rather than fetch: an answer sent before a huge body is fully written still counts. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Expected =
  | { oauth: string; status: number }
  | { platform: string; status: number }
  | { redirectError: string };

interface Case {
  breaks: string;
  method?: string;
  /** path below the issuer (/community/{name}), or from the root when it starts with // */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: Expected;
  /** what error_description (or message) must say, where the code alone could have other causes */
  says?: RegExp;
}

describe('oauth unhappy paths', () => {
  let oauth: OauthUnderTest;
  let machine: { client_id: string; client_secret: string };
  let web: { client_id: string; client_secret: string };
  let serviceKeySecret: string;

  before(async () => {
    oauth = await startOauthUnderTest();
    const ctx = { db: oauth.database.db, masterKey: oauth.masterKey };
    machine = await createOauthClient(ctx, {
      community: oauth.community.name,
      redirectUris: [],
      grantTypes: ['client_credentials'],
    });
    web = await createOauthClient(ctx, {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    serviceKeySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => oauth?.stop());

  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const machineAuth = () => basic(machine.client_id, machine.client_secret);
  const authorizeForm = (extra: Record<string, string>) =>
    new URLSearchParams({
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      ...extra,
    }).toString();

  async function check(c: Case) {
    const url = c.path.startsWith('//')
      ? `${oauth.url}${c.path.slice(1)}`
      : `${oauth.issuer(oauth.community)}${c.path}`;
    const answer = await send(url, c.method ?? 'POST', c.headers ?? {}, c.body);
    const label = `${c.breaks}: ${answer.status} ${answer.text.slice(0, 200)}`;
    if ('redirectError' in c.expect) {
      expect(answer.status, label).to.equal(303);
      const location = new URL(String(answer.headers.location));
      expect(location.origin + location.pathname, label).to.equal(REDIRECT);
      expect(location.searchParams.get('error'), label).to.equal(c.expect.redirectError);
      if (c.says) expect(location.searchParams.get('error_description'), label).to.match(c.says);
      return;
    }
    expect(answer.status, label).to.equal(c.expect.status);
    expect(answer.headers['content-type'], label).to.match(/^application\/json/);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    if (c.says) expect(String(body.error_description ?? body.message), label).to.match(c.says);
    if ('oauth' in c.expect) {
      expect(body, label).to.include({ error: c.expect.oauth });
      expect(body.error_description, label).to.be.a('string');
      expect(body, label).not.to.have.property('statusCode');
    } else {
      expect(body, label).to.include({ statusCode: c.expect.status, error: c.expect.platform });
      expect(body.message, label).to.be.a('string');
    }
  }

  const tokenCases = (): Case[] => [
    {
      breaks: 'content type: JSON instead of a form',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': 'application/json' },
      body: '{"grant_type":"client_credentials"}',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: missing',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'scope=openid',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: given twice',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: unknown',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'grant_type=password',
      expect: { oauth: 'unsupported_grant_type', status: 400 },
    },
    {
      breaks: 'body: 2 MB',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: `grant_type=client_credentials&pad=${'A'.repeat(2_000_000)}`,
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: no credentials at all',
      path: '/v1/token',
      headers: { 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: Basic with a value that is not base64 of id:secret',
      path: '/v1/token',
      headers: { authorization: 'Basic !!!', 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: Basic without a colon',
      path: '/v1/token',
      headers: {
        authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`,
        'content-type': FORM,
      },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: Basic with bad percent-encoding',
      path: '/v1/token',
      headers: {
        authorization: `Basic ${Buffer.from('%zz:%zz').toString('base64')}`,
        'content-type': FORM,
      },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: Bearer instead of Basic',
      path: '/v1/token',
      headers: { authorization: 'Bearer abc', 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'client: unknown',
      path: '/v1/token',
      headers: { authorization: basic('cl_no-such-client', 'x'), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_client', status: 401 },
    },
    {
      breaks: 'client: id with NUL (cannot be in the database)',
      path: '/v1/token',
      headers: { 'content-type': FORM },
      body: 'grant_type=client_credentials&client_id=cl_a%00b&client_secret=x',
      expect: { oauth: 'invalid_client', status: 401 },
    },
    {
      breaks: 'client: credentials both in the header and in the body',
      path: '/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: `grant_type=client_credentials&client_id=${machine.client_id}&client_secret=x`,
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'client: of another community',
      path: '//community/OTHER/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_client', status: 401 },
    },
    {
      breaks: 'code: unknown, with NUL',
      path: '/v1/token',
      headers: { authorization: basic(web.client_id, web.client_secret), 'content-type': FORM },
      body: `grant_type=authorization_code&code=a%00b&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      expect: { oauth: 'invalid_grant', status: 400 },
    },
  ];

  const introspectionCases = (): Case[] => [
    {
      breaks: 'token: missing',
      path: '/v1/introspect',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: '',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'token: given twice',
      path: '/v1/introspect',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'token=a&token=b',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'content type: JSON instead of a form',
      path: '/v1/introspect',
      headers: { authorization: machineAuth(), 'content-type': 'application/json' },
      body: '{"token":"a"}',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'Authorization: missing',
      path: '/v1/introspect',
      headers: { 'content-type': FORM },
      body: 'token=a',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'token: missing, at revocation',
      path: '/v1/revoke',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: '',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'access token: none, at userinfo',
      method: 'GET',
      path: '/v1/userinfo',
      expect: { oauth: 'invalid_token', status: 401 },
    },
    {
      breaks: 'client_id: NUL, at logout',
      method: 'GET',
      path: '/v1/logout?client_id=a%00b',
      expect: { oauth: 'invalid_client', status: 400 },
    },
  ];

  const authorizeCases = (): Case[] => [
    {
      breaks: 'content type: JSON instead of a form',
      path: '/v1/authorize',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: web.client_id }),
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'body: 200 kB',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ pad: 'A'.repeat(200_000) }),
      expect: { platform: 'Payload Too Large', status: 413 },
    },
    {
      breaks: 'proof_of_authentication_jwt: given twice',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: `${authorizeForm({})}&proof_of_authentication_jwt=a.b.c&proof_of_authentication_jwt=a.b.c`,
      expect: { platform: 'invalid_request', status: 400 },
      says: /twice/,
    },
    {
      breaks: 'client_id: given twice',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: `${authorizeForm({ proof_of_authentication_jwt: 'a.b.c' })}&client_id=${web.client_id}`,
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'client_id: unknown',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ client_id: 'cl_no-such-client', proof_of_authentication_jwt: 'a.b.c' }),
      expect: { platform: 'invalid_client', status: 400 },
    },
    {
      breaks: 'client_id: NUL',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ client_id: 'a\u0000b', proof_of_authentication_jwt: 'a.b.c' }),
      expect: { platform: 'invalid_client', status: 400 },
    },
    {
      breaks: 'client_id: NUL, on the GET',
      method: 'GET',
      path: `/v1/authorize?client_id=a%00b&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      expect: { platform: 'invalid_client', status: 400 },
    },
    {
      breaks: 'redirect_uri: missing',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: new URLSearchParams({
        client_id: web.client_id,
        proof_of_authentication_jwt: 'a.b.c',
      }).toString(),
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'redirect_uri: not registered',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({
        redirect_uri: 'https://evil.example.test/cb',
        proof_of_authentication_jwt: 'a.b.c',
      }),
      expect: { platform: 'invalid_redirect_uri', status: 400 },
    },
    {
      breaks: 'state: NUL, with a proof',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ state: 'a\u0000b', proof_of_authentication_jwt: 'a.b.c' }),
      expect: { redirectError: 'invalid_request' },
      says: /NUL/,
    },
    {
      breaks: 'state: NUL, on the GET (it would be stored with the interaction)',
      method: 'GET',
      path: `/v1/authorize?${authorizeForm({ state: 'a\u0000b' })}`,
      expect: { redirectError: 'invalid_request' },
    },
    {
      breaks: 'nonce: NUL, on the GET',
      method: 'GET',
      path: `/v1/authorize?${authorizeForm({ nonce: 'a\u0000b' })}`,
      expect: { redirectError: 'invalid_request' },
    },
    ...[
      ['not three segments', 'abc'],
      ['header not base64url JSON', '!!!.e30.AAAA'],
      ['header a JSON array', `${Buffer.from('[1]').toString('base64url')}.e30.AAAA`],
      ['alg none', `${Buffer.from('{"alg":"none"}').toString('base64url')}.e30.`],
      ['1 MB of segment', `${'A'.repeat(60_000)}.e30.AAAA`],
    ].map(([what, proof]): Case => ({
      breaks: `proof_of_authentication_jwt: ${what}`,
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ proof_of_authentication_jwt: proof! }),
      expect: { redirectError: 'access_denied' },
    })),
  ];

  const routeCases = (): Case[] => [
    {
      breaks: 'community: unknown',
      path: '//community/no-such-community/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { platform: 'Not Found', status: 404 },
    },
    {
      breaks: 'community: not valid percent-encoding',
      path: '//community/%ZZ/v1/token',
      headers: { authorization: machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'community: NUL',
      method: 'GET',
      path: '//community/a%00b/.well-known/openid-configuration',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'method: GET on the token endpoint',
      method: 'GET',
      path: '/v1/token',
      expect: { platform: 'Not Found', status: 404 },
    },
    {
      breaks: 'interaction: unknown uid',
      method: 'GET',
      path: '/v1/interaction/no-such-uid',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'interaction: login with a JSON body and no interaction cookie',
      path: '/v1/interaction/no-such-uid/login',
      headers: { 'content-type': 'application/json' },
      body: '{bad json',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'eam-context: no credential headers',
      method: 'GET',
      path: '/v1/interaction/no-such-uid/eam-context',
      expect: { platform: 'Unauthorized', status: 401 },
    },
    {
      breaks: 'eam-context: credential headers that are not keys',
      method: 'GET',
      path: '/v1/interaction/no-such-uid/eam-context',
      headers: { licensekey: '!!', requestid: '!!', publickey: '!!' },
      expect: { platform: 'Unauthorized', status: 401 },
    },
    {
      breaks: 'ecdsa_helper: body not JSON',
      path: '//ecdsa_helper/encrypt',
      headers: { 'content-type': 'application/json' },
      body: '{bad json',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'ecdsa_helper: fields missing',
      path: '//ecdsa_helper/encrypt',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      expect: { platform: 'Bad Request', status: 400 },
    },
    {
      breaks: 'servicekeys: no credential headers',
      method: 'GET',
      path: '//servicekeys',
      expect: { platform: 'Unauthorized', status: 401 },
    },
  ];

  for (const [group, cases] of [
    ['token endpoint', tokenCases],
    ['introspection, revocation, userinfo and logout', introspectionCases],
    ['authorize endpoint', authorizeCases],
    ['routing and our own endpoints', routeCases],
  ] as const) {
    it(`answers a clear 4xx at the ${group}`, async () => {
      for (const c of cases()) {
        await check({ ...c, path: c.path.replace('OTHER', oauth.other.name) });
      }
    });
  }

  it('refuses a signed proof whose sub holds NUL with access_denied at the redirect_uri', async () => {
    const proof = signProof(serviceKeySecret, {
      aud: oauth.issuer(oauth.community),
      sub: 'acct-testy\u0000mctestface',
    });
    await check({
      breaks: 'proof sub: NUL',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: authorizeForm({ proof_of_authentication_jwt: proof }),
      expect: { redirectError: 'access_denied' },
      says: /NUL/,
    });
  });

  /** A fresh sign-in: the interaction page's URL and its cookie, as a browser would hold them. */
  async function interaction() {
    const url = `${oauth.issuer(oauth.community)}/v1/authorize?${authorizeForm({})}`;
    const start = await send(url, 'GET', {});
    expect(start.status).to.equal(303);
    const cookie = [start.headers['set-cookie'] ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { page: new URL(String(start.headers.location), oauth.url).href, cookie };
  }

  const interactionCases: {
    breaks: string;
    step: 'login' | 'consent';
    type?: string;
    body: string;
    status: number;
    says: RegExp;
  }[] = [
    {
      breaks: 'username: NUL (cannot be in the database)',
      step: 'login',
      body: 'username=testy%00mctestface&password=x',
      status: 401,
      says: /Wrong username or password/,
    },
    {
      breaks: 'password: given twice',
      step: 'login',
      body: 'username=testy&password=x&password=y',
      status: 400,
      says: /password: given more than once/,
    },
    {
      breaks: 'proof_of_authentication_jwt: given twice',
      step: 'login',
      body: 'proof_of_authentication_jwt=a&proof_of_authentication_jwt=b',
      status: 400,
      says: /given more than once/,
    },
    {
      breaks: 'proof_of_authentication_jwt: NUL',
      step: 'login',
      body: 'proof_of_authentication_jwt=%00',
      status: 401,
      says: /The proof was not accepted/,
    },
    {
      breaks: 'content type: JSON instead of the form',
      step: 'login',
      type: 'application/json',
      body: '{"username":"testy","password":"x"}',
      status: 400,
      says: /application\/x-www-form-urlencoded/,
    },
    {
      breaks: 'decision: given twice',
      step: 'consent',
      body: 'decision=allow&decision=allow',
      status: 400,
      says: /decision: given more than once/,
    },
    {
      breaks: 'consent: before any login',
      step: 'consent',
      body: 'decision=allow',
      status: 400,
      says: /nothing to consent to/,
    },
  ];

  it('answers a clear 4xx on the login and consent forms of a live sign-in', async () => {
    for (const c of interactionCases) {
      const { page, cookie } = await interaction();
      const answer = await send(
        `${page}/${c.step}`,
        'POST',
        { 'content-type': c.type ?? FORM, cookie },
        c.body,
      );
      const label = `${c.breaks}: ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).to.equal(c.status);
      expect(answer.text, label).to.match(c.says);
    }
  });
});
