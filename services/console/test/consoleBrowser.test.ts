// The operator console in Debian's Chromium against the real stack: the operators' issuer (password
// and TOTP on its own pages), the docverify gateway with connector workers and the provider
// sandbox, and the console. Operators log in, read the queue, sessions, analytics and the audit
// log; screenshots at desktop and tablet size under test-artifacts/console/, each page checked
// first by axe-core (WCAG 2.1 A/AA); no CSP violation or page error anywhere.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { builtPage } from '../../../test/support/captureBrowser.ts';
import { freePort } from '../../../test/support/freePort.ts';
import {
  eventually,
  startSessionWorld,
  type SessionWorld,
} from '../../../test/support/sessionWorld.ts';
import { ConsoleWorld, PASSWORD, type TestOperator } from './consoleWorld.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-artifacts/console/`;
const DESKTOP = { width: 1440, height: 900 };
const TABLET = { width: 820, height: 1180 };
/** axe-core, run in each page looked at: accessibility rules (WCAG 2.1 A and AA) */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('operator console in a browser (real issuer, gateway, connectors)', function () {
  this.timeout(180_000);
  let sessions: SessionWorld;
  let w: ConsoleWorld;
  let browser: Browser;
  const problems: string[] = [];
  /** the case of the resubmission, erased last */
  let resubmitted: string | undefined;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // the web app built when missing or older than its sources, as make does
    execFileSync('make', ['-s', 'console-app'], { cwd: ROOT, stdio: 'inherit' });
    // the gateway checks operators' tokens at the issuer: its port is known before it starts
    const oauthPort = await freePort();
    sessions = await startSessionWorld({
      name: 'console-browser',
      platform: {
        OAUTH_PORT: String(oauthPort),
        // the built capture page: a resubmission is completed on it
        CAPTURE_PAGE_DIR: builtPage(),
        OPERATORS_USERINFO_URL: `http://127.0.0.1:${oauthPort}/community/operators/v1/userinfo`,
      },
    });
    w = await ConsoleWorld.over(sessions.platform, () => sessions.stop());
    // the config of the session world with a human review of every run, four-eyes
    const c = sessions.platform.community;
    const config = await sessions.client('service').request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'kyc-review',
      dl_authenticate: [{ verifier: 'review' }],
      document_liveness: [{ verifier: 'live' }],
      face_compare: [{ verifier: 'faces' }],
      face_liveness: [{ verifier: 'live' }],
      review: { mode: 'always', fourEyes: true },
    }); // prettier-ignore
    expect(config.status, JSON.stringify(config.body)).to.equal(200);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
    await w?.stop();
    expect(problems, 'CSP violations and page errors').to.deep.equal([]);
  });

  /** A fresh browser context at `viewport` whose CSP reports and page errors are collected. */
  async function newPage(viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('console', (message) => {
      const text = message.text();
      if (/Content.Security.Policy|Refused to/i.test(text)) problems.push(`csp: ${text}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    return page;
  }

  /** Password, then the TOTP code, on the issuer's pages; consent when it asks. */
  async function signInAtIssuer(page: Page, op: TestOperator) {
    await page.getByLabel('Username').fill(op.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await page.getByLabel('Code', { exact: true }).fill(await w.code(op));
    await page.getByRole('button', { name: 'Verify' }).click();
    const consent = page.getByRole('heading', { name: 'Allow access' });
    const back = page.waitForURL(`${w.url}/**`);
    await Promise.race([consent.waitFor(), back]);
    if (await consent.isVisible()) await page.getByRole('button', { name: 'Allow' }).click();
    await back;
  }

  /**
   * `op` logged in to the console: the page at `path` sends them to the issuer and back to it, where
   * its heading `landed` shows.
   */
  async function login(
    op: TestOperator,
    path = '/',
    landed: string | RegExp = 'Review queue',
  ): Promise<Page> {
    const page = await newPage();
    await page.goto(`${w.url}${path}`);
    await signInAtIssuer(page, op);
    await page.getByRole('heading', { name: landed }).first().waitFor();
    return page;
  }

  /** A session of `kyc-review` captured to its end through the page's API: its run opens a case. */
  async function capturedSession(userUID: string): Promise<{ sessionId: string; caseId: string }> {
    const created = await sessions.client('service').createSession('kyc-review', { userUID });
    const page = sessions.page(new URL(created.url).pathname.split('/').at(-1)!);
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    await page.post('/document-type', { documentType: 'DL' });
    const { front, back, selfie } = sessions.images;
    for (const [side, bytes, type] of [
      ['front', front, 'image/png'],
      ['back', back, 'image/png'],
      ['selfie', selfie, 'image/jpeg'],
    ] as const)
      // prettier-ignore
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    expect((await page.post('/submit')).status).to.equal(200);
    const caseId = await eventually('the review case to open', async () => {
      const row = await w.db('docverify.review_cases').where({ session_id: created.sessionId }).first('id'); // prettier-ignore
      return (row as { id: string } | undefined)?.id;
    });
    return { sessionId: created.sessionId, caseId };
  }

  const casePath = (caseId: string) => `/#/case/${sessions.platform.community.id}/${caseId}`;
  const stateOf = (page: Page) => page.locator('#case-title .badge');
  const caseState = (page: Page, state: string) =>
    eventually(`the case ${state}`, async () => ((await stateOf(page).textContent()) === state ? true : undefined)); // prettier-ignore

  /** Chooses a decision and its reason on the case page and records it. */
  async function decide(page: Page, decision: RegExp, reasonCode: string) {
    await page.getByRole('radio', { name: decision }).check();
    await page.getByLabel('Reason').selectOption(reasonCode);
    await page.getByRole('button', { name: 'Record decision' }).click();
  }

  /**
   * The page at desktop and tablet size: axe-core finds no WCAG 2.1 A/AA violation (evaluated
   * through DevTools, which the page's CSP does not govern), then a full-page screenshot.
   */
  async function shot(page: Page, name: string) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['tablet', TABLET],
    ] as const) {
      await page.setViewportSize(viewport);
      const violations = (await page.evaluate(
        `${AXE}; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
      )) as string[];
      expect(violations, `accessibility of ${name} at ${size} size`).to.deep.equal([]);
      const wide = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
      expect(wide, `${name} overflows sideways at ${size} size`).to.equal(false);
      await page.screenshot({ path: `${ARTIFACTS}${name}-${size}.png`, fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
  }

  it('logs an admin in with password and TOTP and shows the empty queue, sessions, analytics and audit log', async () => {
    const admin = await w.operator(['admin']);
    const page = await login(admin);
    await page.getByLabel('Community').selectOption({ label: sessions.platform.community.name });
    await page.getByText('No case matches.').waitFor();
    await shot(page, 'queue-empty');
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
    await shot(page, 'sessions');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: /^Analytics/ }).waitFor();
    await shot(page, 'analytics-empty');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('cell', { name: 'console.login' }).first().waitFor();
    await page.context().close();
  });

  it('a reviewer claims and approves a case, a senior reviewer confirms it, the caller sees the session completed', async () => {
    const { sessionId, caseId } = await capturedSession('user-testy-approved');
    const reviewer = await login(await w.operator(['reviewer']));
    await reviewer
      .getByLabel('Community')
      .selectOption({ label: sessions.platform.community.name });
    const link = reviewer.getByRole('link', { name: caseId.slice(0, 8) });
    await link.waitFor();
    await shot(reviewer, 'queue');
    await link.click();
    await reviewer.getByRole('heading', { name: /^Case / }).waitFor();
    // the document front and back beside the selfie, each image loaded
    const images = reviewer.locator('.images img');
    await eventually('the case images', async () =>
      (await images.count()) >= 3 ? true : undefined,
    );
    for (const image of await images.all())
      expect(await image.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0), await image.getAttribute('alt') ?? '').to.equal(true); // prettier-ignore
    await reviewer.getByRole('table', { name: 'Given by the caller' }).waitFor();
    expect(
      await reviewer.getByRole('cell', { name: 'user-testy-approved' }).count(),
    ).to.be.greaterThan(0);
    expect(await reviewer.locator('#checks-title + table tbody tr').count()).to.be.greaterThan(0);
    await reviewer.getByRole('button', { name: 'Claim' }).click();
    await expect(await eventually('the claim', async () => ((await stateOf(reviewer).textContent()) === 'in review' ? true : undefined))).to.equal(true); // prettier-ignore
    await shot(reviewer, 'case');
    await decide(reviewer, /^Approve/, 'identity_confirmed');
    await eventually('the first decision', async () => ((await stateOf(reviewer).textContent()) === 'awaiting second' ? true : undefined)); // prettier-ignore
    await reviewer.context().close();

    const senior = await login(await w.operator(['senior_reviewer']), casePath(caseId), /^Case /);
    await senior.getByRole('heading', { name: 'Second review (four-eyes)' }).waitFor();
    await shot(senior, 'case-second-review');
    await decide(senior, /^Approve/, 'identity_confirmed');
    await eventually('the second decision', async () => ((await stateOf(senior).textContent()) === 'decided' ? true : undefined)); // prettier-ignore
    await senior.context().close();

    const done = await sessions.client('service').waitForSession('kyc-review', sessionId, { timeoutMs: 20_000 }); // prettier-ignore
    expect(done).to.include({ status: 'COMPLETED' });
  });

  it('a reviewer asks for a resubmission, the person captures a new selfie on the capture page, the case comes back', async () => {
    const { caseId } = await capturedSession('user-testy-resubmitted');
    resubmitted = caseId;
    const reviewer = await login(await w.operator(['reviewer']), casePath(caseId), /^Case /);
    await reviewer.getByRole('button', { name: 'Claim' }).click();
    await caseState(reviewer, 'in review');
    await decide(reviewer, /resubmission/, 'selfie_unusable');
    await caseState(reviewer, 'resubmission requested');
    const url = await reviewer.locator('#resub-title ~ p a').getAttribute('href');
    expect(url).to.match(/\/capture\/[A-Za-z0-9_-]+$/);
    await shot(reviewer, 'case-resubmission');

    // the link names the gateway's public URL (its default port here): the same page on the suite's
    const person = await newPage();
    await person.goto(`${sessions.url}${new URL(url!).pathname}`);
    // a desktop is offered the phone first; consent is asked again unless the page kept it
    await person.getByRole('button', { name: 'Continue on this device' }).click();
    const consent = person.locator('main[data-screen="consent"]');
    const selfie = person.locator('main[data-screen="capture-selfie"]');
    await consent.or(selfie).waitFor();
    if (await consent.isVisible()) {
      await person.getByLabel('I have read and agree to this').check();
      await person.getByRole('button', { name: 'I agree, continue' }).click();
    }
    await selfie.waitFor();
    await person.locator('#upload-selfie').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: sessions.images.selfie }); // prettier-ignore
    await person.getByRole('button', { name: 'Send', exact: true }).click();
    await eventually('the case back from the resubmission', async () => {
      const row = (await w.db('docverify.review_cases').where({ id: caseId }).first('state')) as { state: string }; // prettier-ignore
      return row.state === 'resubmission_requested' ? undefined : row.state;
    });
    // the person waits on the page while the case is reviewed again
    expect(await person.locator('main[data-screen]').getAttribute('data-screen')).to.equal('processing'); // prettier-ignore
    await person.context().close();
    await reviewer.reload();
    await reviewer.getByRole('heading', { name: /^Case / }).waitFor();
    expect(await reviewer.locator('.history').textContent()).to.match(/resubmission requested/);
    await reviewer.context().close();
  });

  it('an admin erases the case after logging in again, and reads every action in the audit log', async () => {
    const admin = await w.operator(['admin']);
    const page = await login(admin, casePath(resubmitted!), /^Case /);
    // the login is older than 5 minutes: erasure sends the admin to the issuer first
    await w.db('console.sessions').where({ username: admin.username }).update({ auth_time: w.db.raw("now() - interval '6 minutes'") }); // prettier-ignore
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Erase' }).click();
    await page.waitForURL(/\/community\/operators\//);
    await signInAtIssuer(page, admin);
    await page.getByRole('heading', { name: /^Case / }).waitFor();
    await page.getByRole('button', { name: 'Erase' }).click();
    await caseState(page, 'erased');
    await page
      .getByRole('status')
      .filter({ hasText: /personal data was erased/ })
      .waitFor();
    expect(await page.locator('.images img').count(), 'no image left on the page').to.equal(0);
    await shot(page, 'case-erased');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('cell', { name: 'data.erased' }).first().waitFor();
    while (await page.getByRole('button', { name: 'Load more' }).isVisible())
      await page.getByRole('button', { name: 'Load more' }).click();
    const actions = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(actions).to.include.members(['console.login', 'case.data.read', 'case.image.read', 'case.decided', 'data.erased']); // prettier-ignore
    await shot(page, 'audit');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('img', { name: /^Verifications per day/ }).waitFor();
    await shot(page, 'analytics');
    await page.context().close();
  });
});
