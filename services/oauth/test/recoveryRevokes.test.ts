// Recovery by an operator ends what the account holds: after `reset-password` or `reset-factors`
// its refresh tokens are invalid_grant and its access tokens inactive (an attacker who took the
// account must not keep API access through a token minted before the recovery).
import { expect } from 'chai';
import { createOauthClient } from '../src/admin.ts';
import { resetFactors, resetPassword } from '../src/signInAdmin.ts';
import { AccountStore } from '../src/store/accountStore.ts';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

describe('oauth recovery revokes the account tokens', function () {
  this.timeout(60_000);
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let keySecret: string;
  const admin = () => oauth.admin();
  const issuer = () => oauth.issuer(oauth.community);
  const basic = () =>
    `Basic ${Buffer.from(`${web.client_id}:${web.client_secret}`).toString('base64')}`;
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${issuer()}${path}`, {
      method: 'POST',
      headers: { authorization: basic() },
      body: new URLSearchParams(form),
    });

  /** Tokens of `sub` by the proof path: an access token and a refresh token. */
  async function tokensOf(sub: string) {
    const authorized = await fetch(`${issuer()}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid offline_access',
        prompt: 'consent',
        redirect_uri: REDIRECT,
        proof_of_authentication_jwt: signProof(keySecret, { aud: issuer(), sub }),
      }),
    });
    const code = new URL(authorized.headers.get('location')!).searchParams.get('code')!;
    const res = await post('/v1/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
    });
    const body = (await res.json()) as { access_token: string; refresh_token?: string };
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(body.refresh_token).to.be.a('string');
    return body as { access_token: string; refresh_token: string };
  }

  const active = async (token: string) =>
    ((await (await post('/v1/introspect', { token })).json()) as { active: boolean }).active;

  before(async () => {
    oauth = await startOauthUnderTest();
    web = await createOauthClient(admin(), {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    keySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => oauth?.stop());

  for (const [name, recover] of [
    ['reset-password', resetPassword],
    ['reset-factors', resetFactors],
  ] as const)
    it(`${name} ends the refresh and access tokens minted before it`, async () => {
      const username = `testy-${name}`;
      const account = await new AccountStore(oauth.database.db).create(
        oauth.community.id,
        username,
        'x'.repeat(12),
      );
      const tokens = await tokensOf(account.accountId);
      expect(await active(tokens.access_token)).to.equal(true);
      const answer = await recover(admin(), { community: oauth.community.name, username });
      expect(answer.revoked).to.be.at.least(2);
      expect(await active(tokens.access_token)).to.equal(false);
      const refreshed = await post('/v1/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      expect(refreshed.status).to.equal(400);
      expect(((await refreshed.json()) as { error: string }).error).to.equal('invalid_grant');
      // another account's tokens are untouched
      const other = await tokensOf(oauth.accountId);
      await recover(admin(), { community: oauth.community.name, username });
      expect(await active(other.access_token)).to.equal(true);
    });
});
