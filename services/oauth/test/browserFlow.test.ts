// The authorization-code flow as a person does it: headless Chromium on the login and consent
// pages, openid-client as the relying party; screenshots go to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@idv/testing/chromium';
import { createOauthAccount, createOauthClient } from '../src/admin.ts';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';
const ARTIFACTS = new URL('../../../test-artifacts/', import.meta.url).pathname;

describe('oauth login and consent in a browser', function () {
  this.timeout(60_000);
  let oauth: OauthUnderTest;
  let browser: Browser;
  let config: client.Configuration;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    oauth = await startOauthUnderTest();
    const ctx = { db: oauth.database.db, keyring: oauth.keyring };
    const web = await createOauthClient(ctx, {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    await createOauthAccount(ctx, {
      community: oauth.community.name,
      username: 'testy',
      password: 'correct horse battery',
      displayName: 'Testy McTestface',
    });
    config = await client.discovery(
      new URL(oauth.issuer(oauth.community)),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await oauth?.stop();
  });

  /** Opens the authorize URL; resolves with the URL the browser was sent back to. */
  async function startFlow(page: Page, parameters: Record<string, string>) {
    let callback: URL | undefined;
    await page.route('https://rp.example.test/**', async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({
        status: 200,
        contentType: 'text/plain',
        body: 'back at the relying party',
      });
    });
    await page.goto(client.buildAuthorizationUrl(config, parameters).href);
    return () => callback;
  }

  it('signs in with a password, consents and redeems the code with PKCE', async () => {
    const page = await browser.newPage();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const callback = await startFlow(page, {
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    await page.screenshot({ path: `${ARTIFACTS}oauth-login.png` });
    await page.getByLabel('Username').fill('testy');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(await page.getByRole('alert').textContent()).to.match(
      /Wrong username or password/,
    );
    await page.screenshot({ path: `${ARTIFACTS}oauth-login-failed.png` });

    await page.getByLabel('Username').fill('testy');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}oauth-consent.png` });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/rp\.example\.test/);

    const tokens = await client.authorizationCodeGrant(config, callback()!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()?.preferred_username).to.equal(undefined); // profile claims go to userinfo
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(userinfo).to.include({ preferred_username: 'testy', name: 'Testy McTestface' });
    await page.close();
  });

  it('returns access_denied when the person denies consent', async () => {
    const page = await browser.newPage();
    const callback = await startFlow(page, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 'deny-1',
    });
    await page.getByLabel('Username').fill('testy');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(/rp\.example\.test/);
    expect(callback()!.searchParams.get('error')).to.equal('access_denied');
    expect(callback()!.searchParams.get('state')).to.equal('deny-1');
    await page.close();
  });
});
