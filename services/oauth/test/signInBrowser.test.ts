// Sign-in as a person does it, in Debian's Chromium: a password, enrolling an authenticator app
// (the secret read off the page, the code computed), signing in with it, replayed codes refused,
// a passkey enrolled and used through Chromium's virtual authenticator, an account locked by
// failures from one address but not from another, and unlocked with the admin CLI. The ID
// token's amr and acr say what was used. Screenshots at phone and desktop size.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { expect } from 'chai';
import * as client from 'openid-client';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '@idv/testing/chromium';
import { createOauthAccount, createOauthClient } from '../src/admin.ts';
import { setBranding, setLoginLimits, setMfaPolicy } from '../src/signInAdmin.ts';
import { startOauthUnderTest, type OauthUnderTest } from './support.ts';

const REDIRECT = 'https://rp.example.test/callback';
const ARTIFACTS = new URL('../../../test-artifacts/sign-in/', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = 'correct horse battery';
/** axe-core, run in each page looked at: accessibility rules (WCAG 2.1 A and AA) */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('sign-in in a browser: passwords, second factors, locks', function () {
  this.timeout(120_000);
  let oauth: OauthUnderTest;
  let browser: Browser;
  let config: client.Configuration;
  /** the issuer on localhost: WebAuthn refuses an IP address as the relying party */
  let issuer: string;
  const cspViolations: string[] = [];

  const signInAdmin = () => oauth.admin();

  async function account(username: string) {
    await createOauthAccount(signInAdmin(), {
      community: oauth.community.name,
      username,
      password: PASSWORD,
      displayName: 'Testy McTestface',
    });
  }

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    oauth = await startOauthUnderTest({ TRUST_PROXY: 'true' });
    issuer = oauth.issuer(oauth.community).replace('127.0.0.1', 'localhost');
    const web = await createOauthClient(signInAdmin(), {
      community: oauth.community.name,
      redirectUris: [REDIRECT],
      grantTypes: ['authorization_code'],
      name: 'Testy Bank',
    });
    await setMfaPolicy(signInAdmin(), {
      community: oauth.community.name,
      policy: 'optional',
      factors: [],
    });
    config = await client.discovery(
      new URL(issuer),
      web.client_id,
      web.client_secret,
      client.ClientSecretBasic(web.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    browser = await launchChromium({
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
    await oauth?.stop();
    expect(cspViolations, 'CSP violations').to.deep.equal([]);
  });

  /** A fresh browser (cookies of its own), seen from `address` (X-Forwarded-For). */
  async function person(
    address = '198.51.100.7',
    viewport = PHONE,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport,
      extraHTTPHeaders: { 'X-Forwarded-For': address },
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (err) => cspViolations.push(`page error: ${err.message}`));
    await context.route('https://rp.example.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the relying party' }),
    );
    return { context, page };
  }

  /** Starts a sign-in; returns how to finish it: the tokens of the code it comes back with. */
  async function startSignIn(page: Page, extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    await page.goto(url.href);
    return async () => {
      const consent = page.getByRole('heading', { name: 'Allow access' });
      await Promise.race([consent.waitFor(), page.waitForURL(/rp\.example\.test/)]);
      if (await consent.isVisible()) await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(/rp\.example\.test/);
      const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      return tokens.claims()!;
    };
  }

  async function password(page: Page, username: string, secret = PASSWORD) {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(secret);
    // the answer page loaded before anything reads it: an alert of the page before it (the same
    // text or another) must not pass for this attempt's
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
  }

  /**
   * A screenshot of the page, after axe-core found no accessibility violation in it (evaluated
   * through DevTools, which the page's CSP does not govern; the page itself runs no inline code).
   */
  async function shot(page: Page, name: string) {
    const violations = (await page.evaluate(
      `${AXE}; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    )) as string[];
    expect(violations, `accessibility of ${name}`).to.deep.equal([]);
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  }

  it('names the client and the community, and shows people no JWT box', async () => {
    await setBranding(signInAdmin(), {
      community: oauth.community.name,
      displayName: 'Testy Credit Union',
      accentColor: '#0b6e4f',
    });
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const { context, page } = await person('198.51.100.1', viewport);
      await startSignIn(page);
      const text = await page.locator('main').textContent();
      expect(text).to.include('Testy Bank').and.to.include('Testy Credit Union');
      // an expression, not a function: Playwright calls no function given as a string (and the
      // tests' types know no DOM); the login form's button is the page's first
      const accent = await page.evaluate(
        "getComputedStyle(document.querySelector('form:not(.passkey) button')).backgroundColor",
      );
      expect(accent).to.equal('rgb(11, 110, 79)');
      expect(await page.locator('textarea').count()).to.equal(0);
      expect(await page.getByText(/proof/i).count()).to.equal(0);
      await shot(page, `login-${size}`);
      await context.close();
    }
  });

  it('speaks Spanish to a browser that asks for it', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'es-ES' });
    const page = await context.newPage();
    await page.goto(
      client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'es' })
        .href,
    );
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await shot(page, 'login-phone-es');
    await context.close();
  });

  it('enrols an authenticator app, signs in with it, and refuses a replayed code', async () => {
    await account('testy-totp');
    const first = await person('198.51.100.2');
    const finish = await startSignIn(first.page);
    await password(first.page, 'testy-totp');
    await first.page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await shot(first.page, 'enrol-choice-phone');
    await first.page.getByRole('link', { name: /Authenticator app/ }).click();
    const secret = (await first.page.locator('#secret').textContent())!.replace(/\s/g, '');
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(await first.page.getByRole('img', { name: /authenticator app/ }).count()).to.equal(1);
    await shot(first.page, 'enrol-totp-phone');
    await first.page.getByLabel('Code', { exact: true }).fill('000000');
    await first.page.getByRole('button', { name: 'Confirm' }).click();
    await first.page.getByRole('alert').waitFor();
    await first.page.getByLabel('Code', { exact: true }).fill(await generate({ secret }));
    await first.page.getByRole('button', { name: 'Confirm' }).click();
    await first.page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    expect(await first.page.locator('.codes li').count()).to.equal(10);
    await shot(first.page, 'recovery-codes-phone');
    await first.page.getByRole('button', { name: /I have saved them/ }).click();
    const enrolled = await finish();
    expect(enrolled.amr).to.include.members(['pwd', 'otp', 'mfa']);
    expect(enrolled.acr).to.equal('urn:idv:acr:mfa');
    await first.context.close();

    // the next step's code (the enrolment spent this step's)
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const second = await person('198.51.100.2', DESKTOP);
    const finishSecond = await startSignIn(second.page);
    await password(second.page, 'testy-totp');
    await second.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await shot(second.page, 'second-factor-desktop');
    await second.page.getByLabel('Code', { exact: true }).fill(code);
    await second.page.getByRole('button', { name: 'Verify' }).click();
    const claims = await finishSecond();
    expect(claims.amr).to.include.members(['pwd', 'otp', 'mfa']);
    await second.context.close();

    const replay = await person('198.51.100.3');
    await startSignIn(replay.page);
    await password(replay.page, 'testy-totp');
    await replay.page.getByLabel('Code', { exact: true }).fill(code);
    await replay.page.getByRole('button', { name: 'Verify' }).click();
    await expect(await replay.page.getByRole('alert').textContent()).to.match(/already used/);
    await shot(replay.page, 'second-factor-replayed-phone');
    await replay.context.close();
  });

  it('enrols a passkey and signs in with it alone, through the virtual authenticator', async () => {
    await account('testy-passkey');
    const { context, page } = await person('198.51.100.4');
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const finish = await startSignIn(page);
    await password(page, 'testy-passkey');
    await page.getByRole('link', { name: /Passkey/ }).click();
    await shot(page, 'enrol-passkey-phone');
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    await page.getByRole('button', { name: /I have saved them/ }).click();
    expect((await finish()).amr).to.include.members(['pwd', 'hwk', 'mfa']);

    await context.clearCookies();
    const again = await startSignIn(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const claims = await again();
    expect(claims.amr).to.include.members(['hwk', 'mfa']);
    expect(claims.amr).not.to.include('pwd');
    await context.close();
  });

  it('locks an account after failures from one address, not from another; the CLI unlocks it', async () => {
    await account('testy-lock');
    await setLoginLimits(signInAdmin(), {
      community: oauth.community.name,
      limits: { freeFailures: '1', lockAfter: '3', baseDelaySeconds: '1' },
      reset: false,
    });
    const attacker = await person('203.0.113.9');
    await startSignIn(attacker.page);
    let message = '';
    for (let guess = 0; guess < 6 && !/paused until/.test(message); guess++) {
      await password(attacker.page, 'testy-lock', `guess-${guess}`);
      message = (await attacker.page.getByRole('alert').textContent()) ?? '';
    }
    expect(message).to.match(/paused until/);
    await shot(attacker.page, 'locked-phone');
    // the right password from the locked address: still locked
    await password(attacker.page, 'testy-lock');
    expect(await attacker.page.getByRole('alert').textContent()).to.match(/paused until/);

    // the owner, from another address, signs in
    const owner = await person('192.0.2.44');
    const finish = await startSignIn(owner.page);
    await password(owner.page, 'testy-lock');
    await owner.page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await owner.page.getByRole('button', { name: 'Not now' }).click();
    expect((await finish()).amr).to.deep.equal(['pwd']);
    await owner.context.close();

    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'admin',
        '--',
        'oauth-account',
        'unlock',
        '--community',
        oauth.community.name,
        '--username',
        'testy-lock',
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: oauth.database.url,
          MASTER_KEY: oauth.masterKey.toString('base64'),
        },
      },
    );
    expect(JSON.parse(stdout)).to.include({ unlocked: true, wasLocked: true });
    const finishAttacker = await startSignIn(attacker.page);
    // the owner's "not now" holds for the account: no offer this time
    await password(attacker.page, 'testy-lock');
    expect((await finishAttacker()).amr).to.deep.equal(['pwd']);
    await attacker.context.close();
  });
});
