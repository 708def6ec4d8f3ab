// The browser suite's world, shared with the console bench (bench/console.bench.ts): the real
// stack (the operators' issuer, the docverify gateway with connector workers and the provider
// sandbox, the console and its built web app), a config `kyc-review` reviewing every run with
// four-eyes, Debian's Chromium, operators logging in on the issuer's pages with password and TOTP,
// and sessions captured to their end through the capture page's API, each opening a case.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import type { Browser, Page } from 'playwright-core';
import { builtPage } from './captureBrowser.ts';
import { launchChromium } from './chromium.ts';
import { freePort } from './freePort.ts';
import { eventually, startSessionWorld, type SessionWorld } from './sessionWorld.ts';
import { ConsoleWorld, PASSWORD, type TestOperator } from './consoleWorld.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
export const DESKTOP = { width: 1440, height: 900 };
export const TABLET = { width: 820, height: 1180 };
export const PHONE = { width: 390, height: 844 };

export class ConsoleBrowserWorld {
  /** CSP violations and page errors seen on any page */
  readonly problems: string[] = [];

  private constructor(
    readonly sessions: SessionWorld,
    readonly w: ConsoleWorld,
    readonly browser: Browser,
  ) {}

  static async start(name: string): Promise<ConsoleBrowserWorld> {
    // the web app built when missing or older than its sources, as make does
    execFileSync('make', ['-s', 'console-app'], { cwd: ROOT, stdio: 'inherit' });
    // the gateway checks operators' tokens at the issuer: its port is known before it starts
    const oauthPort = await freePort();
    const sessions = await startSessionWorld({
      name,
      platform: {
        OAUTH_PORT: String(oauthPort),
        // the built capture page: a resubmission is completed on it
        CAPTURE_PAGE_DIR: builtPage(),
        OPERATORS_USERINFO_URL: `http://127.0.0.1:${oauthPort}/community/operators/v1/userinfo`,
      },
    });
    const w = await ConsoleWorld.over(sessions.platform, () => sessions.stop());
    const c = sessions.platform.community;
    const config = await sessions
      .client('service')
      .request('PUT', `/verificationConfig/community/${c.id}`, {
        tenantId: c.tenantId,
        tag: 'kyc-review',
        dl_authenticate: [{ verifier: 'review' }],
        document_liveness: [{ verifier: 'live' }],
        face_compare: [{ verifier: 'faces' }],
        face_liveness: [{ verifier: 'live' }],
        review: { mode: 'always', fourEyes: true },
      });
    expect(config.status, JSON.stringify(config.body)).to.equal(200);
    const browser = await launchChromium({
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    return new ConsoleBrowserWorld(sessions, w, browser);
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await this.w.stop();
  }

  get community() {
    return this.sessions.platform.community;
  }

  casePath(caseId: string): string {
    return `/#/case/${this.community.id}/${caseId}`;
  }

  /** A fresh browser context at `viewport` whose CSP reports and page errors are collected. */
  async newPage(viewport = DESKTOP): Promise<Page> {
    const context = await this.browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('console', (message) => {
      const text = message.text();
      if (/Content.Security.Policy|Refused to/i.test(text)) this.problems.push(`csp: ${text}`);
    });
    page.on('pageerror', (err) => this.problems.push(`page error: ${err.message}`));
    return page;
  }

  /** Password, then the TOTP code, on the issuer's pages; consent when it asks. */
  async signInAtIssuer(page: Page, op: TestOperator): Promise<void> {
    await page.getByLabel('Username').fill(op.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await page.getByLabel('Code', { exact: true }).fill(await this.w.code(op));
    await page.getByRole('button', { name: 'Verify' }).click();
    const consent = page.getByRole('heading', { name: 'Allow access' });
    const back = page.waitForURL(`${this.w.url}/**`);
    await Promise.race([consent.waitFor(), back]);
    if (await consent.isVisible()) await page.getByRole('button', { name: 'Allow' }).click();
    await back;
  }

  /**
   * `op` logged in to the console: the page at `path` sends them to the issuer and back to it, where
   * its heading `landed` shows.
   */
  async login(op: TestOperator, path = '/', landed: string | RegExp = 'Review queue') {
    const page = await this.newPage();
    await page.goto(`${this.w.url}${path}`);
    await this.signInAtIssuer(page, op);
    await page.getByRole('heading', { name: landed }).first().waitFor();
    return page;
  }

  /**
   * A session of `kyc-review` captured to its end through the page's API (the caller giving
   * `userUID`, or nothing): its run opens a case.
   */
  async capturedSession(userUID?: string): Promise<{ sessionId: string; caseId: string }> {
    const { sessions } = this;
    const created = await sessions
      .client('service')
      .createSession('kyc-review', userUID ? { userUID } : {});
    const page = sessions.page(new URL(created.url).pathname.split('/').at(-1)!);
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    await page.post('/document-type', { documentType: 'DL' });
    const { front, back, selfie } = sessions.images;
    for (const [side, bytes, type] of [
      ['front', front, 'image/png'],
      ['back', back, 'image/png'],
      ['selfie', selfie, 'image/jpeg'],
    ] as const)
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    expect((await page.post('/submit')).status).to.equal(200);
    const caseId = await eventually('the review case to open', async () => {
      const row = await this.w
        .db('docverify.review_cases')
        .where({ session_id: created.sessionId })
        .first('id');
      return (row as { id: string } | undefined)?.id;
    });
    return { sessionId: created.sessionId, caseId };
  }
}
