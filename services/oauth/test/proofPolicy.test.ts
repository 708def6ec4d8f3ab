// The proof path (proof_of_authentication_jwt on the authorize POST) signs in one factor and has
// no page to ask for another: it gives a code while the community's policy is off, or optional
// for an account without a second factor; it is access_denied in a community that requires a
// second factor and for an account that has one. The code's ID token says amr ["proof"].
import { expect } from 'chai';
import * as client from 'openid-client';
import { createOauthClient } from '../src/admin.ts';
import { enrolTotp, setMfaPolicy } from '../src/signInAdmin.ts';
import { AccountStore } from '../src/store/accountStore.ts';
import { SETTINGS_CACHE_MS } from '../src/store/signInSettings.ts';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';

describe('oauth proofs under a second-factor policy', function () {
  this.timeout(60_000);
  let oauth: OauthUnderTest;
  let web: { client_id: string; client_secret: string };
  let keySecret: string;
  const admin = () => oauth.admin();
  /** A new policy, seen by the service once its settings cache (5 s) has let the old one go. */
  async function policy(value: string) {
    await setMfaPolicy(admin(), { community: oauth.community.name, policy: value, factors: [] });
    oauth.settingsClock.advance(SETTINGS_CACHE_MS);
  }

  /** The redirect of an authorize POST with a fresh proof for `sub`. */
  async function authorize(sub: string): Promise<URL> {
    const res = await fetch(`${oauth.issuer(oauth.community)}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: web.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        state: 'st',
        proof_of_authentication_jwt: signProof(keySecret, {
          aud: oauth.issuer(oauth.community),
          sub,
        }),
      }),
    });
    expect(res.status).to.equal(303);
    return new URL(res.headers.get('location')!);
  }

  before(async () => {
    oauth = await startOauthUnderTest();
    web = await createOauthClient(admin(), {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
    });
    keySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(() => oauth?.stop());

  it('gives a code with amr ["proof"] while the policy is off', async () => {
    const back = await authorize(oauth.accountId);
    expect(back.searchParams.get('code')).to.be.a('string');
    const config = await client.discovery(
      new URL(oauth.issuer(oauth.community)),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    const tokens = await client.authorizationCodeGrant(config, back, { expectedState: 'st' });
    expect(tokens.claims()).to.include({ acr: 'urn:idv:acr:1fa' });
    expect(tokens.claims()!.amr).to.deep.equal(['proof']);
  });

  it('refuses it for an account with a second factor under an optional policy', async () => {
    await policy('optional');
    const plain = await new AccountStore(oauth.database.db).create(
      oauth.community.id,
      'testy-plain',
      'x'.repeat(12),
    );
    expect((await authorize(plain.accountId)).searchParams.get('code')).to.be.a('string');
    const guarded = await new AccountStore(oauth.database.db).create(
      oauth.community.id,
      'testy-guarded',
      'x'.repeat(12),
    );
    await enrolTotp(admin(), { community: oauth.community.name, username: 'testy-guarded' });
    const refused = await authorize(guarded.accountId);
    expect(refused.searchParams.get('error')).to.equal('access_denied');
    expect(refused.searchParams.get('code')).to.equal(null);
  });

  it('refuses every proof in a community that requires a second factor', async () => {
    await policy('required');
    const refused = await authorize(oauth.accountId);
    expect(refused.searchParams.get('error')).to.equal('access_denied');
    expect(refused.searchParams.get('error_description')).to.match(/second factor/);
  });
});
