// The oauth service through openid-client as an unmodified relying party, plus the proof POST.
import { expect } from 'chai';
import * as client from 'openid-client';
import { generateKeyPair } from '@idv/crypto';
import { OauthDiscovery, OauthJwks, validate } from '@idv/contracts';
import { createOauthClient, trustProofKey } from '../src/admin.ts';
import {
  malleate,
  signProof,
  startOauthUnderTest,
  withSForm,
  type OauthUnderTest,
} from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

describe('oauth service', () => {
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let machine: { client_id: string; client_secret: string };
  let serviceKeySecret: string;
  /** keys the community trusts for proofs, by kid */
  const partner = generateKeyPair();
  const otherPartner = generateKeyPair();

  const configFor = async (
    issuer: string,
    credentials: { client_id: string; client_secret: string },
  ) =>
    client.discovery(
      new URL(issuer),
      credentials.client_id,
      { client_secret: credentials.client_secret, redirect_uris: [REDIRECT] },
      client.ClientSecretBasic(credentials.client_secret),
      { execute: [client.allowInsecureRequests] },
    );

  const postAuthorize = (communityName: string, form: Record<string, string>) =>
    fetch(`${oauth.url}/community/${communityName}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(form),
    });

  before(async () => {
    oauth = await startOauthUnderTest();
    const ctx = { db: oauth.database.db, keyring: oauth.keyring };
    web = await createOauthClient(ctx, {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    machine = await createOauthClient(ctx, {
      community: oauth.community.name,
      redirectUris: [],
      grantTypes: ['client_credentials'],
    });
    serviceKeySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
    await trustProofKey(ctx, oauth.community.name, 'partner-1', partner.publicKey);
    await trustProofKey(ctx, oauth.community.name, 'partner-2', otherPartner.publicKey);
  });
  after(() => oauth?.stop());

  it('publishes discovery with the spec paths and a JWKS without private members', async () => {
    const config = await configFor(oauth.issuer(oauth.community), machine);
    const meta = config.serverMetadata();
    expect(meta.issuer).to.equal(oauth.issuer(oauth.community));
    expect(meta.token_endpoint).to.equal(`${meta.issuer}/v1/token`);
    expect(meta.introspection_endpoint).to.equal(`${meta.issuer}/v1/introspect`);
    expect(meta.authorization_endpoint).to.equal(`${meta.issuer}/v1/authorize`);
    expect(validate(OauthDiscovery, meta).ok).to.equal(true);
    const jwks = (await (await fetch(meta.jwks_uri!)).json()) as { keys: object[] };
    expect(jwks.keys.length).to.be.greaterThan(0);
    expect(validate(OauthJwks, jwks).ok).to.equal(true);
    for (const key of jwks.keys) expect(key).to.not.have.any.keys('d', 'p', 'q');
  });

  it('answers 404 with the error body for an unknown community', async () => {
    const res = await fetch(
      `${oauth.url}/community/no-such-community/.well-known/openid-configuration`,
    );
    expect(res.status).to.equal(404);
    expect(await res.json()).to.include({ statusCode: 404, error: 'Not Found' });
  });

  it('issues, introspects and revokes a client_credentials token', async () => {
    const config = await configFor(oauth.issuer(oauth.community), machine);
    const tokens = await client.clientCredentialsGrant(config);
    expect(tokens.access_token).to.be.a('string');
    const active = await client.tokenIntrospection(config, tokens.access_token);
    expect(active).to.include({ active: true, client_id: machine.client_id });
    await client.tokenRevocation(config, tokens.access_token);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).to.equal(false);
  });

  it('shows a token of one community as inactive at another', async () => {
    const config = await configFor(oauth.issuer(oauth.community), machine);
    const tokens = await client.clientCredentialsGrant(config);
    const elsewhere = await createOauthClient(
      { db: oauth.database.db, keyring: oauth.keyring },
      { community: oauth.other.name, redirectUris: [], grantTypes: ['client_credentials'] },
    );
    const otherConfig = await configFor(oauth.issuer(oauth.other), elsewhere);
    expect((await client.tokenIntrospection(otherConfig, tokens.access_token)).active).to.equal(
      false,
    );
  });

  it('refuses token requests without valid HTTP Basic client credentials', async () => {
    const res = await fetch(`${oauth.issuer(oauth.community)}/v1/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${machine.client_id}:wrong`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(res.status).to.equal(401);
    expect(((await res.json()) as { error: string }).error).to.equal('invalid_client');
  });

  it('turns a valid proof JWT into a code, redeemed once with PKCE, then refreshed', async () => {
    const issuer = oauth.issuer(oauth.community);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const res = await postAuthorize(oauth.community.name, {
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      // high S, as node:crypto, OpenSSL and JOSE libraries sign about half the time
      proof_of_authentication_jwt: withSForm(
        signProof(serviceKeySecret, { aud: issuer, sub: oauth.accountId }),
        'high',
      ),
    });
    expect(res.status).to.equal(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).to.equal(REDIRECT);
    expect(location.searchParams.get('code')).to.be.a('string');
    expect(location.searchParams.get('iss')).to.equal(issuer);

    const config = await configFor(issuer, web);
    const tokens = await client.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()?.sub).to.equal(oauth.accountId);
    expect(tokens.refresh_token).to.be.a('string');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).to.be.a('string');

    const again = await fetch(`${issuer}/v1/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${web.client_id}:${web.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    expect(again.status).to.equal(400);
    expect(((await again.json()) as { error: string }).error).to.equal('invalid_grant');
  });

  describe('rejects bad proofs with a 303 carrying error', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const replayed = { jti: `replay-${Date.now()}` };
    const cases: [string, () => string][] = [
      [
        'expired',
        () =>
          signProof(serviceKeySecret, {
            sub: oauth.accountId,
            aud: oauth.issuer(oauth.community),
            iat: now() - 600,
            exp: now() - 300,
          }),
      ],
      [
        'wrong audience',
        () => signProof(serviceKeySecret, { aud: oauth.issuer(oauth.other), sub: oauth.accountId }),
      ],
      [
        'forged',
        () =>
          signProof(generateKeyPair().privateKey, {
            aud: oauth.issuer(oauth.community),
            sub: oauth.accountId,
          }),
      ],
      [
        'too long-lived',
        () =>
          signProof(serviceKeySecret, {
            aud: oauth.issuer(oauth.community),
            sub: oauth.accountId,
            exp: now() + 3600,
          }),
      ],
      ['not a JWT', () => 'not-a-jwt'],
      [
        'a kid naming another trusted key than the one that signed',
        () =>
          signProof(
            partner.privateKey,
            { aud: oauth.issuer(oauth.community), sub: oauth.accountId },
            { kid: 'partner-2' },
          ),
      ],
      [
        'a kid naming no trusted key',
        () =>
          signProof(
            partner.privateKey,
            { aud: oauth.issuer(oauth.community), sub: oauth.accountId },
            { kid: 'unknown' },
          ),
      ],
    ];
    for (const [name, proof] of cases) {
      it(name, async () => {
        const res = await postAuthorize(oauth.community.name, {
          client_id: web.client_id,
          response_type: 'code',
          scope: 'openid',
          redirect_uri: REDIRECT,
          state: 's1',
          proof_of_authentication_jwt: proof(),
        });
        expect(res.status).to.equal(303);
        const location = new URL(res.headers.get('location')!);
        expect(location.searchParams.get('error')).to.equal('access_denied');
        expect(location.searchParams.get('state')).to.equal('s1');
        expect(location.searchParams.has('code')).to.equal(false);
      });
    }

    it('replayed', async () => {
      const proof = signProof(serviceKeySecret, {
        aud: oauth.issuer(oauth.community),
        sub: oauth.accountId,
        ...replayed,
      });
      const form = {
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: proof,
      };
      const first = new URL(
        (await postAuthorize(oauth.community.name, form)).headers.get('location')!,
      );
      expect(first.searchParams.has('code')).to.equal(true);
      const second = new URL(
        (await postAuthorize(oauth.community.name, form)).headers.get('location')!,
      );
      expect(second.searchParams.get('error')).to.equal('access_denied');
    });

    it('replayed as its twin: the other S form of a spent proof is spent too (one jti)', async () => {
      const proof = signProof(serviceKeySecret, {
        aud: oauth.issuer(oauth.community),
        sub: oauth.accountId,
      });
      const form = (token: string) => ({
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: token,
      });
      const first = new URL(
        (await postAuthorize(oauth.community.name, form(proof))).headers.get('location')!,
      );
      expect(first.searchParams.has('code')).to.equal(true);
      const twin = new URL(
        (await postAuthorize(oauth.community.name, form(malleate(proof)))).headers.get('location')!,
      );
      expect(twin.searchParams.get('error')).to.equal('access_denied');
      expect(twin.searchParams.has('code')).to.equal(false);
    });
  });

  it('accepts a proof whose kid names its signer: a trusted key or a service keyId', async () => {
    const { keyId } = (await oauth.service.runtime.serviceKeys.currentKey()).key;
    const aud = oauth.issuer(oauth.community);
    for (const proof of [
      signProof(partner.privateKey, { aud, sub: oauth.accountId }, { kid: 'partner-1' }),
      signProof(serviceKeySecret, { aud, sub: oauth.accountId }, { kid: keyId }),
    ]) {
      const res = await postAuthorize(oauth.community.name, {
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: proof,
      });
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('error_description')).to.equal(null);
      expect(location.searchParams.get('code')).to.be.a('string');
    }
  });

  it('holds a proof with azp to the client it names', async () => {
    const aud = oauth.issuer(oauth.community);
    const form = (azp: string) => ({
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
      proof_of_authentication_jwt: signProof(serviceKeySecret, { aud, sub: oauth.accountId, azp }),
    });
    const elsewhere = new URL(
      (await postAuthorize(oauth.community.name, form(machine.client_id))).headers.get('location')!,
    );
    expect(elsewhere.searchParams.get('error')).to.equal('access_denied');
    expect(elsewhere.searchParams.get('error_description')).to.match(/azp/);
    const here = new URL(
      (await postAuthorize(oauth.community.name, form(web.client_id))).headers.get('location')!,
    );
    expect(here.searchParams.get('code')).to.be.a('string');
  });

  it('sends a POST without proof on to the interactive flow', async () => {
    const res = await postAuthorize(oauth.community.name, {
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
    });
    expect(res.status).to.equal(303);
    const next = await fetch(new URL(res.headers.get('location')!, oauth.url), {
      redirect: 'manual',
    });
    expect(next.status).to.equal(303);
    expect(next.headers.get('location')).to.match(/\/v1\/interaction\//);
  });

  it('answers 400 (no redirect) for an unregistered redirect_uri', async () => {
    const res = await postAuthorize(oauth.community.name, {
      client_id: web.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://evil.example.test/cb',
      proof_of_authentication_jwt: 'x',
    });
    expect(res.status).to.equal(400);
  });
});
