// `oauth-key rotate`: the next key is published before it signs, old tokens keep verifying.
import { expect } from 'chai';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { createOauthClient, rotateSigningKey } from '../src/admin.ts';
import { eventually } from '@idv/testing/eventually';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';
const REFRESH_MS = 200;

describe('oauth signing key rotation', () => {
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let serviceKeySecret: string;

  const issuer = () => oauth.issuer(oauth.community);
  const jwks = async () =>
    (await (await fetch(`${issuer()}/v1/jwks`)).json()) as JSONWebKeySet & {
      keys: { kid: string }[];
    };
  const kids = async () => (await jwks()).keys.map((key) => key.kid);

  /** An ID token through the proof flow: the signed artefact whose kid shows the signing key. */
  async function idToken(): Promise<string> {
    const authorize = await fetch(`${issuer()}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: signProof(serviceKeySecret, {
          aud: issuer(),
          sub: oauth.accountId,
        }),
      }),
    });
    const code = new URL(authorize.headers.get('location')!).searchParams.get('code');
    expect(code, 'authorization code').to.be.a('string');
    const token = await fetch(`${issuer()}/v1/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${web.client_id}:${web.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: REDIRECT,
      }),
    });
    expect(token.status).to.equal(200);
    return ((await token.json()) as { id_token: string }).id_token;
  }

  const verify = async (token: string) =>
    jwtVerify(token, createLocalJWKSet(await jwks()), {
      issuer: issuer(),
      audience: web.client_id,
    });

  before(async () => {
    oauth = await startOauthUnderTest({ OAUTH_KEY_REFRESH_MS: String(REFRESH_MS) });
    web = await createOauthClient(
      { db: oauth.database.db, keyring: oauth.keyring },
      { community: oauth.community.name, redirectUris: [REDIRECT], grantTypes: [] },
    );
    serviceKeySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => oauth?.stop());

  it('publishes the next key first, then signs with it; old tokens still verify', async () => {
    const before = await kids();
    expect(before).to.have.length(2); // the current key, then the published next one
    const [first, next] = before;
    const oldToken = await idToken();
    expect(decodeProtectedHeader(oldToken).kid).to.equal(first);

    const { current } = await rotateSigningKey(
      { db: oauth.database.db, keyring: oauth.keyring },
      oauth.community.name,
    );
    expect(current, 'the key promoted is the one published before').to.equal(next);

    // the service notices within its refresh period; bounded wait
    const after = await eventually(
      'the promoted key signing',
      async () => {
        const published = await kids();
        return published[0] === next ? published : undefined;
      },
      { timeoutMs: 25 * REFRESH_MS, intervalMs: REFRESH_MS / 2 },
    );
    expect(after, 'a fresh next key is published at once').to.have.length(3);
    expect(after, 'the retired key stays published for verification').to.include(first);

    const newToken = await idToken();
    expect(decodeProtectedHeader(newToken).kid).to.equal(next);
    expect((await verify(newToken)).protectedHeader.kid).to.equal(next);
    expect((await verify(oldToken)).protectedHeader.kid).to.equal(first);
  });
});
