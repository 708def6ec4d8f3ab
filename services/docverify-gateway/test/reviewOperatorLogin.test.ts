// An operator of the real operators' issuer (the platform's oauth service, scope operator) signs in
// with openid-client (authorization code with PKCE) and works a review case on the gateway with
// the access token: the gateway learns who they are, their roles and communities, at the issuer's
// userinfo endpoint. An operator whose role does not allow a step is refused, a token the issuer
// no longer knows too. An admin operator edits a verifier and a config (the console's edits), each
// audited with who did it, as a licence's edits are.
import { expect } from 'chai';
import * as client from 'openid-client';
import { IdvRequestError, OperatorClient } from '@idv/client';
import { createOauthClient } from '../../oauth/src/admin.ts';
import { createOperator } from '../../oauth/src/operatorAdmin.ts';
import { setMfaPolicy, type SignInAdminContext } from '../../oauth/src/signInAdmin.ts';
import { HttpBrowser, headingOf } from '@idv/testing/httpBrowser';
import { freePort } from '@idv/testing/freePort';
import { platformKeyring } from '@idv/testing/platform';
import { startReviewWorld, type ReviewWorld } from './reviewWorld.ts';

const REDIRECT = 'https://console.example.test/auth/callback';
const PASSWORD = 'correct horse battery staple';

describe('review cases: an operator signed in at the real operators issuer', function () {
  this.timeout(120_000);
  let w: ReviewWorld;
  let config: client.Configuration;

  before(async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}/community/operators`;
    w = await startReviewWorld({
      name: 'review-login',
      platform: { OAUTH_PORT: String(port), OPERATORS_USERINFO_URL: `${issuer}/v1/userinfo` },
    });
    const ctx: SignInAdminContext = {
      db: w.platform.database.db,
      keyring: platformKeyring(w.platform),
      masterKey: Buffer.from(w.platform.env.MASTER_KEY!, 'base64'),
      operatorsCommunity: 'operators',
      actor: 'test',
    };
    const community = [w.platform.community.id];
    await createOperator(ctx, {
      username: 'testy-reviewing',
      roles: ['reviewer'],
      communities: community,
      password: PASSWORD,
    });
    await createOperator(ctx, {
      username: 'testy-viewing',
      roles: ['viewer'],
      communities: community,
      password: PASSWORD,
    });
    await createOperator(ctx, {
      username: 'testy-admin',
      roles: ['admin'],
      communities: community,
      password: PASSWORD,
    });
    // the second factor has its own tests (services/oauth): here the password signs in
    await setMfaPolicy(ctx, { community: 'operators', policy: 'off', factors: [] });
    const web = await createOauthClient(ctx, {
      community: 'operators',
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: 'Operator console',
      console: true,
    });
    config = await client.discovery(
      new URL(issuer),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
  });
  after(async () => w?.stopWorld());

  /** The access token of `username` after signing in on the issuer's pages. */
  async function signIn(username: string): Promise<string> {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile operator',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = new HttpBrowser();
    const login = await browser.go(url.href, REDIRECT);
    const form = (page: { url: string }) => /^.*\/v1\/interaction\/[^/?]+/.exec(page.url)![0];
    let page = await browser.go(`${form(login)}/login`, REDIRECT, {
      form: { username, password: PASSWORD },
    });
    if (headingOf(page.text) === 'Allow access')
      page = await browser.go(`${form(page)}/consent`, REDIRECT, { form: { decision: 'allow' } });
    expect(page.location, `${page.status} ${page.text.slice(0, 300)}`).to.match(
      /^https:\/\/console\.example\.test\/auth\/callback\?code=/,
    );
    const tokens = await client.authorizationCodeGrant(config, new URL(page.location!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()).to.deep.include({
      preferred_username: username,
      communities: [w.platform.community.id],
    });
    return tokens.access_token;
  }

  it('claims and decides a case with the access token; a viewer reads but may not claim', async () => {
    const c = w.platform.community.id;
    const listed = await w.caseOf({ verificationId: await w.asyncVerify('kyc-always') });
    const reviewing = new OperatorClient({
      baseUrl: w.url,
      accessToken: await signIn('testy-reviewing'),
    });
    const viewing = new OperatorClient({
      baseUrl: w.url,
      accessToken: await signIn('testy-viewing'),
    });

    expect((await viewing.review.cases(c)).items.map((i) => i.caseId)).to.include(listed.caseId);
    const refused = await viewing.review
      .claim(c, listed.caseId)
      .catch((err: IdvRequestError) => err);
    expect(refused).to.be.instanceOf(IdvRequestError);
    expect((refused as IdvRequestError).status).to.equal(403);

    expect(await reviewing.review.claim(c, listed.caseId)).to.deep.include({
      state: 'in_review',
      assignee: 'testy-reviewing',
    });
    const decided = await reviewing.review.decide(c, listed.caseId, {
      decision: 'approve',
      reasonCode: 'identity_confirmed',
    });
    expect(decided).to.deep.include({ state: 'decided', outcome: 'approved' });
    const audit = await w.platform.database
      .db('platform.audit_log')
      .where({ action: 'case.decided', subject_id: listed.caseId });
    expect(audit.map((r: { actor: string }) => r.actor)).to.deep.equal([
      'operator:testy-reviewing',
    ]);

    const other = w.platform.otherCommunity.id;
    const elsewhere = await reviewing.review.cases(other).catch((err: IdvRequestError) => err);
    expect(
      (elsewhere as IdvRequestError).status,
      'a community the operator does not act on',
    ).to.equal(403);
    const forged = new OperatorClient({
      baseUrl: w.url,
      accessToken: 'not-a-token-the-issuer-made',
    });
    expect(
      ((await forged.review.cases(c).catch((err: IdvRequestError) => err)) as IdvRequestError)
        .status,
    ).to.equal(401);
  });

  it("an admin edits a verifier (a mask sent back keeps its secret) and a config's review; a reviewer may not; each edit is audited", async () => {
    const c = w.platform.community.id;
    const db = w.platform.database.db;
    const token = await signIn('testy-admin');
    const patch = (path: string, body: object, bearer = token) =>
      fetch(`${w.url}${path}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const edited = await patch(`/verifier/community/${c}/faces`, {
      name: 'Faces of Testy',
      config: { apiKey: '********' },
    });
    const body = (await edited.json()) as { name: string; config: { apiKey: string } };
    expect(edited.status, JSON.stringify(body)).to.equal(200);
    expect(body).to.deep.include({ name: 'Faces of Testy', config: { apiKey: '********' } });
    // the system licence reads the secret whole: the mask kept it
    const stored = await w
      .client('system')
      .request<{ config: { apiKey: string } }>('GET', `/verifier/community/${c}/faces`);
    expect(stored.body.config.apiKey).to.equal('sandbox-key');
    // a mask with no secret behind it, and a reviewer's token: refused, nothing changed
    const masked = await patch(`/verifier/community/${c}/faces`, {
      config: { apiKey: '********', secret: '********' },
    });
    expect(masked.status).to.equal(400);
    const reviewer = await patch(
      `/verifier/community/${c}/faces`,
      { name: 'Not mine to change' },
      await signIn('testy-reviewing'),
    );
    expect(reviewer.status).to.equal(403);
    const review = await patch(`/verificationConfig/community/${c}/kyc-always`, {
      review: { mode: 'always', fourEyes: true, slaMinutes: 60 },
    });
    expect(review.status, await review.clone().text()).to.equal(200);
    expect(((await review.json()) as { review: unknown }).review).to.deep.equal({
      mode: 'always',
      fourEyes: true,
      slaMinutes: 60,
    });
    // a licence's edit is audited too, under the licence
    expect(
      (
        await w
          .client('service')
          .request('PATCH', `/verificationConfig/community/${c}/kyc-always`, {
            review: { mode: 'always' },
          })
      ).status,
    ).to.equal(200);

    const rows = (await db('platform.audit_log')
      .whereIn('action', ['verifier.updated', 'verification_config.updated'])
      .orderBy('seq')) as {
      actor: string;
      action: string;
      subject_kind: string;
      details: { members: string[] };
    }[];
    expect(
      rows.map((r) => [
        r.actor.replace(/^licence:.*/, 'licence'),
        r.action,
        r.subject_kind,
        r.details.members,
      ]),
    ).to.deep.equal([
      ['operator:testy-admin', 'verifier.updated', 'verifier', ['config', 'name']],
      ['operator:testy-admin', 'verification_config.updated', 'verification_config', ['review']],
      ['licence', 'verification_config.updated', 'verification_config', ['review']],
    ]);
    expect(JSON.stringify(rows), 'no secret in the audit log').to.not.include('sandbox-key');
  });
});
