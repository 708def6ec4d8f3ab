// A proof signs in once, whichever way it comes: the authorize POST and the login page accept it
// through one acceptProof(), so a proof spent on one is refused on the other.
import { expect } from 'chai';
import { createOauthClient } from '../src/admin.ts';
import { REDIRECT, send } from './badInput.ts';
import { signProof, startOauthUnderTest, type OauthUnderTest } from './support.ts';

describe('oauth spends a proof once across the authorize POST and the login page', () => {
  let oauth: OauthUnderTest;
  let clientId: string;
  let serviceKeySecret: string;

  const issuer = () => oauth.issuer(oauth.community);
  const proof = () => signProof(serviceKeySecret, { aud: issuer(), sub: oauth.accountId });

  /** The authorize POST with a proof: where its 303 sends the client. */
  const postAuthorize = async (token: string) => {
    const res = await fetch(`${issuer()}/v1/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: REDIRECT,
        state: 'st-1',
        proof_of_authentication_jwt: token,
      }),
    });
    expect(res.status).to.equal(303);
    return new URL(res.headers.get('location')!).searchParams;
  };

  /** A sign-in started with a GET, then the proof pasted on its login page. */
  const pasteOnLoginPage = async (token: string) => {
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT,
    });
    const start = await send(`${issuer()}/v1/authorize?${query.toString()}`, 'GET', {});
    expect(start.status).to.equal(303);
    const cookie = [start.headers['set-cookie'] ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = new URL(String(start.headers.location), oauth.url).href;
    return send(
      `${page}/login`,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded', cookie },
      new URLSearchParams({ proof_of_authentication_jwt: token }).toString(),
    );
  };

  before(async function () {
    this.timeout(60_000);
    oauth = await startOauthUnderTest();
    const ctx = { db: oauth.database.db, keyring: oauth.keyring };
    clientId = (
      await createOauthClient(ctx, {
        community: oauth.community.name,
        redirectUris: [REDIRECT],
        grantTypes: ['authorization_code'],
      })
    ).client_id;
    serviceKeySecret = (await oauth.service.runtime.serviceKeys.currentKey()).key.keySecret;
  });
  after(async () => oauth?.stop());

  it('refuses on the login page a proof the authorize POST has spent', async () => {
    const token = proof();
    expect((await postAuthorize(token)).get('code')).to.be.a('string');
    const answer = await pasteOnLoginPage(token);
    expect(answer.status).to.equal(401);
    expect(answer.text).to.contain('This proof was used before.');
  });

  it('refuses on the authorize POST a proof the login page has spent', async () => {
    const token = proof();
    const signedIn = await pasteOnLoginPage(token);
    expect(signedIn.status, signedIn.text).to.equal(303);
    const refused = await postAuthorize(token);
    expect(refused.get('error')).to.equal('access_denied');
    expect(refused.get('error_description')).to.equal('proof was used before');
    expect(refused.get('state')).to.equal('st-1');
    expect(refused.has('code')).to.equal(false);
  });
});
