// The discovery members of spec 2.3 beyond the endpoints, each checked against what the issuer
// really does: request objects (HS256 with the client secret), no request_uri, HTTP Basic only.
import { expect } from 'chai';
import { SignJWT, UnsecuredJWT } from 'jose';
import { createOauthClient } from '../src/admin.ts';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

describe('oauth discovery document', () => {
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let meta: Record<string, unknown>;

  const issuer = () => oauth.issuer(oauth.community);
  const authorize = (query: Record<string, string>) =>
    fetch(`${issuer()}/v1/authorize?${new URLSearchParams(query).toString()}`, {
      redirect: 'manual',
    });
  const requestObject = (claims: Record<string, unknown>, secret = web.client_secret) =>
    new SignJWT({ ...plainRequest(), ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(web.client_id)
      .setAudience(issuer())
      .setExpirationTime('2m')
      .sign(new TextEncoder().encode(secret));
  const plainRequest = () => ({
    client_id: web.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid',
  });
  const errorAt = (res: Response) =>
    new URL(res.headers.get('location')!).searchParams.get('error');

  before(async () => {
    oauth = await startOauthUnderTest();
    web = await createOauthClient(
      { db: oauth.database.db, keyring: oauth.keyring },
      {
        community: oauth.community.name,
        redirectUris: [REDIRECT],
        grantTypes: ['authorization_code', 'refresh_token'],
      },
    );
    const res = await fetch(`${issuer()}/.well-known/openid-configuration`);
    meta = (await res.json()) as Record<string, unknown>;
  });
  after(() => oauth?.stop());

  it('publishes the request object, request_uri and introspection members of spec 2.3', () => {
    expect(meta).to.deep.include({
      request_parameter_supported: true,
      request_object_signing_alg_values_supported: ['HS256'],
      request_uri_parameter_supported: false,
      require_request_uri_registration: true,
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic'],
      token_endpoint_auth_signing_alg_values_supported: [],
      introspection_endpoint_auth_signing_alg_values_supported: [],
    });
  });

  it('takes a request object signed HS256 with the client secret', async () => {
    const res = await authorize({
      client_id: web.client_id,
      request: await requestObject({ state: 'ro-1' }),
    });
    expect(res.status, await res.text()).to.equal(303);
    expect(res.headers.get('location')).to.match(/\/v1\/interaction\//);
  });

  it('refuses (400, no redirect) request objects unsigned, signed with another secret, or without exp or aud', async () => {
    const unsigned = new UnsecuredJWT(plainRequest())
      .setIssuer(web.client_id)
      .setAudience(issuer())
      .setExpirationTime('2m')
      .encode();
    const forged = await requestObject({}, 'not-the-client-secret-but-long-enough-0000');
    const sign = (jwt: SignJWT) =>
      jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(web.client_secret));
    const endless = await sign(
      new SignJWT(plainRequest()).setIssuer(web.client_id).setAudience(issuer()),
    );
    const anywhere = await sign(
      new SignJWT(plainRequest()).setIssuer(web.client_id).setExpirationTime('2m'),
    );
    for (const [what, request] of [
      ['unsigned', unsigned],
      ['forged', forged],
      ['no exp', endless],
      ['no aud', anywhere],
    ]) {
      const res = await authorize({
        client_id: web.client_id,
        response_type: 'code',
        request: request!,
      });
      // not redirected: the redirect_uri inside an object that does not verify is not trusted
      expect(res.status, what).to.equal(400);
      expect(await res.json(), what).to.include({
        statusCode: 400,
        error: 'invalid_request_object',
      });
    }
  });

  it('refuses request_uri, as request_uri_parameter_supported says', async () => {
    const res = await authorize({
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      request_uri: 'https://rp.example.test/request.jwt',
    });
    expect(res.status).to.equal(303);
    expect(errorAt(res)).to.equal('request_uri_not_supported');
  });

  it('authenticates clients at introspection with HTTP Basic only', async () => {
    const post = await fetch(meta.introspection_endpoint as string, {
      method: 'POST',
      body: new URLSearchParams({
        token: 'x',
        client_id: web.client_id,
        client_secret: web.client_secret,
      }),
    });
    expect(post.status).to.equal(401);
    const basic = await fetch(meta.introspection_endpoint as string, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${web.client_id}:${web.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: 'x' }),
    });
    expect(basic.status).to.equal(200);
  });
});
