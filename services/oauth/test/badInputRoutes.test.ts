// Bad input at our own routes of the oauth service (issuer routing, interaction pages, EAM
// context, common endpoints), through a listening service and its database.
import { expect } from 'chai';
import { checkCase, FORM, send, startBadInputWorld, type Case } from './badInput.ts';

describe('oauth routes and forms refuse bad input with a clear 4xx', () => {
  let w: Awaited<ReturnType<typeof startBadInputWorld>>;

  before(async () => {
    w = await startBadInputWorld();
  });
  after(() => w?.oauth.stop());

  const routeCases = (): Case[] => [
    {
      breaks: 'community: unknown',
      path: '//community/no-such-community/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
      body: 'grant_type=client_credentials',
      expect: { platform: 'Not Found', status: 404 },
    },
    {
      breaks: 'community: not valid percent-encoding',
      path: '//community/%ZZ/v1/token',
      headers: { authorization: w.machineAuth(), 'content-type': FORM },
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

  it('at the issuer routing and our own endpoints', async () => {
    for (const c of routeCases()) await checkCase(w.oauth, c);
  });

  /** A fresh sign-in: the interaction page's URL and its cookie, as a browser would hold them. */
  async function interaction() {
    const url = `${w.oauth.issuer(w.oauth.community)}/v1/authorize?${w.authorizeForm({})}`;
    const start = await send(url, 'GET', {});
    expect(start.status).to.equal(303);
    const cookie = [start.headers['set-cookie'] ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { page: new URL(String(start.headers.location), w.oauth.url).href, cookie };
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

  it('on the login and consent forms of a live sign-in', async () => {
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
