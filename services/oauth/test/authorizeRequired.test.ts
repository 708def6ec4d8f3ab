// The required authorize parameters (spec 4: client_id, response_type, scope, redirect_uri) on
// the GET, the POST with a proof and the POST without one: a redirect_uri that is missing or not
// registered is never redirected to (RFC 6749 4.1.2.1); with a good one the error goes there.
import { expect } from 'chai';
import { SignJWT } from 'jose';
import {
  basic,
  checkCase,
  FORM,
  REDIRECT,
  send,
  startBadInputWorld,
  type Case,
} from './badInput.ts';
import { signProof } from './support.ts';

describe('oauth authorize refuses a request without its required parameters', () => {
  let w: Awaited<ReturnType<typeof startBadInputWorld>>;
  let serviceKeySecret: string;

  before(async () => {
    w = await startBadInputWorld();
    serviceKeySecret = (await w.oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => w?.oauth.stop());

  /** The spec's four required parameters, minus `without`, plus `extra`. */
  const query = (without: string[], extra: Record<string, string> = {}) => {
    const all: Record<string, string> = {
      client_id: w.web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      state: 'st-1',
      ...extra,
    };
    for (const name of without) delete all[name];
    return new URLSearchParams(all).toString();
  };

  const getCases = (): Case[] => [
    {
      breaks: 'scope: missing',
      method: 'GET',
      path: `/v1/authorize?${query(['scope'])}`,
      expect: { redirectError: 'invalid_request' },
      says: /scope/,
    },
    {
      breaks: 'scope: empty',
      method: 'GET',
      path: `/v1/authorize?${query([], { scope: '' })}`,
      expect: { redirectError: 'invalid_request' },
      says: /scope/,
    },
    {
      breaks: 'redirect_uri: missing (the client has exactly one registered)',
      method: 'GET',
      path: `/v1/authorize?${query(['redirect_uri'])}`,
      expect: { platform: 'invalid_request', status: 400 },
      says: /redirect_uri/,
    },
    {
      breaks: 'redirect_uri and scope: both missing',
      method: 'GET',
      path: `/v1/authorize?${query(['redirect_uri', 'scope'])}`,
      expect: { platform: 'invalid_request', status: 400 },
    },
    {
      breaks: 'redirect_uri: not registered',
      method: 'GET',
      path: `/v1/authorize?${query([], { redirect_uri: 'https://evil.example.test/cb' })}`,
      expect: { platform: 'invalid_redirect_uri', status: 400 },
    },
    {
      breaks: 'redirect_uri: not a URL',
      method: 'GET',
      path: `/v1/authorize?${query([], { redirect_uri: 'not a url' })}`,
      expect: { platform: 'invalid_redirect_uri', status: 400 },
    },
    {
      breaks: 'response_type: missing',
      method: 'GET',
      path: `/v1/authorize?${query(['response_type'])}`,
      expect: { redirectError: 'invalid_request' },
      says: /response_type/,
    },
    {
      breaks: 'client_id: missing',
      method: 'GET',
      path: `/v1/authorize?${query(['client_id'])}`,
      expect: { platform: 'invalid_request', status: 400 },
      says: /client_id/,
    },
  ];

  const proofCases = (): Case[] => {
    const proof = () =>
      signProof(serviceKeySecret, {
        aud: w.oauth.issuer(w.oauth.community),
        sub: w.oauth.accountId,
      });
    const post = (without: string[], extra: Record<string, string> = {}): string =>
      query(without, { proof_of_authentication_jwt: proof(), ...extra });
    return [
      {
        breaks: 'scope: missing, with a proof',
        path: '/v1/authorize',
        headers: { 'content-type': FORM },
        body: post(['scope']),
        expect: { redirectError: 'invalid_request' },
        says: /scope/,
      },
      {
        breaks: 'response_type: missing, with a proof',
        path: '/v1/authorize',
        headers: { 'content-type': FORM },
        body: post(['response_type']),
        expect: { redirectError: 'invalid_request' },
        says: /response_type/,
      },
      {
        breaks: 'response_type: token, with a proof',
        path: '/v1/authorize',
        headers: { 'content-type': FORM },
        body: post([], { response_type: 'token' }),
        expect: { redirectError: 'unsupported_response_type' },
      },
      {
        breaks: 'redirect_uri: missing, with a proof',
        path: '/v1/authorize',
        headers: { 'content-type': FORM },
        body: post(['redirect_uri']),
        expect: { platform: 'invalid_request', status: 400 },
      },
      {
        breaks: 'request: a request object beside a proof',
        path: '/v1/authorize',
        headers: { 'content-type': FORM },
        body: post([], { request: 'e30.e30.' }),
        expect: { redirectError: 'invalid_request' },
        says: /request/,
      },
    ];
  };

  it('on the GET', async () => {
    for (const c of getCases()) await checkCase(w.oauth, c);
  });

  it('on the POST with a proof', async () => {
    for (const c of proofCases()) await checkCase(w.oauth, c);
  });

  it('on the POST without a proof, once its 303 to the GET is followed', async () => {
    for (const c of getCases()) {
      const posted = await send(
        `${w.oauth.issuer(w.oauth.community)}/v1/authorize`,
        'POST',
        { 'content-type': FORM },
        c.path.split('?')[1],
      );
      expect(posted.status, c.breaks).to.equal(303);
      const hop = new URL(String(posted.headers.location), w.oauth.url);
      await checkCase(w.oauth, { ...c, path: `//${hop.pathname.slice(1)}${hop.search}` });
    }
  });

  it('at the pushed authorization request endpoint as well', async () => {
    const push = (without: string[]) =>
      send(
        `${w.oauth.issuer(w.oauth.community)}/request`,
        'POST',
        { 'content-type': FORM, authorization: basic(w.web.client_id, w.web.client_secret) },
        query(without),
      );
    expect((await push([])).status).to.equal(201);
    for (const missing of ['scope', 'redirect_uri']) {
      const answer = await push([missing]);
      expect(answer.status, missing).to.equal(400);
      expect(JSON.parse(answer.text), missing).to.include({ error: 'invalid_request' });
    }
  });

  it('in a request object: a scope missing there is missing', async () => {
    const request = await new SignJWT({
      client_id: w.web.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 'ro-2',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(w.web.client_id)
      .setAudience(w.oauth.issuer(w.oauth.community))
      .setExpirationTime('2m')
      .sign(new TextEncoder().encode(w.web.client_secret));
    await checkCase(w.oauth, {
      breaks: 'scope: missing from the request object (given outside it, where JAR ignores it)',
      method: 'GET',
      path: `/v1/authorize?${new URLSearchParams({
        client_id: w.web.client_id,
        scope: 'openid',
        request,
      }).toString()}`,
      expect: { redirectError: 'invalid_request' },
      says: /scope/,
    });
  });
});
