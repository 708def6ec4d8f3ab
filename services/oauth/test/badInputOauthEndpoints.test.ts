// Bad input at the OAuth endpoints (token, introspection, revocation, userinfo, logout,
// authorize) of a listening service and its database: each case names what it breaks.
import { signProof } from './support.ts';
import { basic, checkCase, FORM, REDIRECT, startBadInputWorld, type Case } from './badInput.ts';

describe('oauth endpoints refuse bad input with a clear 4xx', () => {
  let w: Awaited<ReturnType<typeof startBadInputWorld>>;

  before(async () => {
    w = await startBadInputWorld();
  });
  after(() => w?.oauth.stop());

  const tokenCases = (): Case[] => [
    {
      breaks: 'content type: JSON instead of a form',
      path: '/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': 'application/json' },
      body: '{"grant_type":"client_credentials"}',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: missing',
      path: '/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'scope=openid',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: given twice',
      path: '/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'grant_type: unknown',
      path: '/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'grant_type=password',
      expect: { oauth: 'unsupported_grant_type', status: 400 },
    },
    {
      breaks: 'body: 2 MB',
      path: '/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
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
      breaks: 'client: the right secret, but in the body (client_secret_post is not offered)',
      path: '/v1/token',
      headers: { 'content-type': FORM },
      body: `grant_type=client_credentials&client_id=${w.machine.client_id}&client_secret=${w.machine.client_secret}`,
      expect: { oauth: 'invalid_client', status: 401 },
    },
    {
      breaks: 'client: of another community',
      path: '//community/OTHER/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { oauth: 'invalid_client', status: 401 },
    },
    {
      breaks: 'code: unknown, with NUL',
      path: '/v1/token',
      headers: { authorization: basic(w.web.client_id, w.web.client_secret), 'content-type': FORM },
      body: `grant_type=authorization_code&code=a%00b&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      expect: { oauth: 'invalid_grant', status: 400 },
    },
  ];

  const introspectionCases = (): Case[] => [
    {
      breaks: 'token: missing',
      path: '/v1/introspect',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: '',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'token: given twice',
      path: '/v1/introspect',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'token=a&token=b',
      expect: { oauth: 'invalid_request', status: 400 },
    },
    {
      breaks: 'content type: JSON instead of a form',
      path: '/v1/introspect',
      headers: { authorization: w.machineAuth(), 'content-type': 'application/json' },
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
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
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
      // the refusal came from the session saved after oidc-provider's error handling: Koa's text
      breaks: 'state: NUL, at logout (found by the fuzz suite)',
      method: 'GET',
      path: '/v1/logout?state=a%00b',
      expect: { oauth: 'invalid_request', status: 400 },
      says: /NUL/,
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
      body: JSON.stringify({ client_id: w.web.client_id }),
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'body: 200 kB',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({ pad: 'A'.repeat(200_000) }),
      expect: { platform: 'Payload Too Large', status: 413 },
    },
    {
      breaks: 'proof_of_authentication_jwt: given twice',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: `${w.authorizeForm({})}&proof_of_authentication_jwt=a.b.c&proof_of_authentication_jwt=a.b.c`,
      expect: { platform: 'invalid_request', status: 400 },
      says: /twice/,
    },
    {
      breaks: 'client_id: given twice',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: `${w.authorizeForm({ proof_of_authentication_jwt: 'a.b.c' })}&client_id=${w.web.client_id}`,
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'client_id: unknown',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({
        client_id: 'cl_no-such-client',
        proof_of_authentication_jwt: 'a.b.c',
      }),
      expect: { platform: 'invalid_client', status: 400 },
    },
    {
      breaks: 'client_id: NUL',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({ client_id: 'a\u0000b', proof_of_authentication_jwt: 'a.b.c' }),
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
        client_id: w.web.client_id,
        proof_of_authentication_jwt: 'a.b.c',
      }).toString(),
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'redirect_uri: not registered',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({
        redirect_uri: 'https://evil.example.test/cb',
        proof_of_authentication_jwt: 'a.b.c',
      }),
      expect: { platform: 'invalid_redirect_uri', status: 400 },
    },
    {
      breaks: 'state: NUL, with a proof',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({ state: 'a\u0000b', proof_of_authentication_jwt: 'a.b.c' }),
      expect: { redirectError: 'invalid_request' },
      says: /NUL/,
    },
    {
      breaks: 'state: NUL, on the GET (it would be stored with the interaction)',
      method: 'GET',
      path: `/v1/authorize?${w.authorizeForm({ state: 'a\u0000b' })}`,
      expect: { redirectError: 'invalid_request' },
    },
    {
      breaks: 'nonce: NUL, on the GET',
      method: 'GET',
      path: `/v1/authorize?${w.authorizeForm({ nonce: 'a\u0000b' })}`,
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
      body: w.authorizeForm({ proof_of_authentication_jwt: proof! }),
      expect: { redirectError: 'access_denied' },
    })),
  ];

  for (const [group, cases] of [
    ['token endpoint', tokenCases],
    ['introspection, revocation, userinfo and logout', introspectionCases],
    ['authorize endpoint', authorizeCases],
  ] as const) {
    it(`at the ${group}`, async () => {
      for (const c of cases()) {
        await checkCase(w.oauth, { ...c, path: c.path.replace('OTHER', w.oauth.other.name) });
      }
    });
  }

  it('refuses a signed proof whose sub holds NUL with access_denied at the redirect_uri', async () => {
    const key = (await w.oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
    const proof = signProof(key, {
      aud: w.oauth.issuer(w.oauth.community),
      sub: 'acct-testy\u0000mctestface',
    });
    await checkCase(w.oauth, {
      breaks: 'proof sub: NUL',
      path: '/v1/authorize',
      headers: { 'content-type': FORM },
      body: w.authorizeForm({ proof_of_authentication_jwt: proof }),
      expect: { redirectError: 'access_denied' },
      says: /NUL/,
    });
  });
});
