// The operator console in Debian's Chromium against the real stack (consoleBrowserWorld.ts):
// operators log in on the issuer's pages, read the queue, sessions, webhooks, verifiers, analytics
// and the audit log, and work cases end to end, and an admin edits a verifier and a config;
// screenshots at desktop, tablet and phone size under
// test-artifacts/console/, each page checked first by axe-core (WCAG 2.1 A/AA); no CSP violation
// or page error anywhere.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import type { Page } from 'playwright-core';
import { eventually } from '@idv/testing/sessionWorld';
import { ConsoleBrowserWorld, DESKTOP, PHONE, TABLET } from '@idv/testing/consoleBrowserWorld';

const ROOT = new URL('../../../', import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-artifacts/console/`;
/** axe-core, run in each page looked at: accessibility rules (WCAG 2.1 A and AA) */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('operator console in a browser (real issuer, gateway, connectors)', function () {
  this.timeout(180_000);
  let world: ConsoleBrowserWorld;
  /** the case of the resubmission, erased last */
  let resubmitted: string | undefined;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await ConsoleBrowserWorld.start('console-browser');
  });
  after(async () => {
    await world?.stop();
    expect(world?.problems, 'CSP violations and page errors').to.deep.equal([]);
  });

  const stateOf = (page: Page) => page.locator('#case-title .badge');
  const caseState = (page: Page, state: string) =>
    eventually(`the case ${state}`, async () =>
      (await stateOf(page).textContent()) === state ? true : undefined,
    );

  /** Chooses a decision and its reason on the case page and records it. */
  async function decide(page: Page, decision: RegExp, reasonCode: string) {
    await page.getByRole('radio', { name: decision }).check();
    await page.getByLabel('Reason').selectOption(reasonCode);
    await page.getByRole('button', { name: 'Record decision' }).click();
  }

  /**
   * The page at desktop, tablet and phone size: axe-core finds no WCAG 2.1 A/AA violation (evaluated
   * through DevTools, which the page's CSP does not govern), then a full-page screenshot.
   */
  async function shot(page: Page, name: string) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['tablet', TABLET],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      const violations = (await page.evaluate(
        `${AXE}; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
      )) as string[];
      expect(violations, `accessibility of ${name} at ${size} size`).to.deep.equal([]);
      // what sticks out past the window's right edge, named: the page must not scroll sideways
      const wide = await page.evaluate(
        `document.documentElement.scrollWidth <= window.innerWidth ? [] : [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')).slice(0, 8)`,
      );
      expect(wide, `${name} overflows sideways at ${size} size`).to.deep.equal([]);
      await page.screenshot({ path: `${ARTIFACTS}${name}-${size}.png`, fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
  }

  /** Whether the element `selector` names is on the first screen (no scroll needed to see it). */
  const withinFirstScreen = (page: Page, selector: string) =>
    page.evaluate(
      `document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().bottom + window.scrollY <= window.innerHeight`,
    );

  /** The smallest size (px) an analytics chart's label is drawn at, the SVG's scale counted. */
  const smallestChartLabel = (page: Page) =>
    page.evaluate(
      `Math.min(...[...document.querySelectorAll('.chart text')].map((t) => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize)))`,
    ) as Promise<number>;

  /**
   * A webhook of the community (through the webhooks gateway, with the service licence) and two
   * deliveries in its log, one that succeeded and one that failed (written as the dispatcher
   * would: this world runs none).
   */
  async function webhookWithDeliveries() {
    const { platform } = world.sessions;
    const c = platform.community;
    const client = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    });
    const hook = await client.request<{ _id: string }>(
      'PUT',
      `/tenant/${c.tenantId}/community/${c.id}/webhook`,
      {
        name: 'Testy review callbacks',
        eventNames: ['E_IDV_REVIEW_OPENED', 'E_IDV_REVIEW_DECIDED'],
        api: {
          type: 'POST',
          url: 'https://hooks.example.test/idv/review-callbacks?token=secret',
          authType: 'none',
        },
        successCodes: [200],
      },
    );
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    const at = new Date(Date.now() - 3_600_000);
    for (const [status, code, error] of [
      ['succeeded', 200, null],
      ['failed', 500, 'status 500 is neither success nor retry'],
    ] as const) {
      const id = `msg_${randomBytes(12).toString('hex')}`;
      await world.w.db('webhooks.deliveries').insert({
        id,
        webhook_id: hook.body._id,
        event_id: `evt_${randomBytes(8).toString('hex')}`,
        event_name: 'E_IDV_REVIEW_OPENED',
        body: '{}',
        status,
        round_attempts: 1,
        event_at: at,
        created_at: at,
        completed_at: at,
      });
      await world.w.db('webhooks.attempts').insert({
        delivery_id: id,
        attempt: 1,
        at,
        status_code: code,
        latency_ms: 42,
        outcome: status === 'succeeded' ? 'succeeded' : 'failed',
        error,
      });
    }
  }

  it('logs an admin in with password and TOTP and shows the empty queue, sessions, webhooks, verifiers, analytics and audit log', async () => {
    await webhookWithDeliveries();
    const page = await world.login(await world.w.operator(['admin']));
    await page.getByLabel('Community').selectOption({ label: world.community.name });
    await page.getByText('No case matches.').waitFor();
    await shot(page, 'queue-empty');
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
    await shot(page, 'sessions');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Show deliveries of Testy review callbacks' }).click();
    const failed = page.getByRole('row').filter({ hasText: 'failed' });
    await failed.waitFor();
    await failed.getByRole('button', { name: /Redeliver/ }).click();
    await page.getByRole('row').filter({ hasText: 'pending' }).waitFor();
    expect(await page.locator('main').textContent(), "the target's query not shown").to.not.include(
      'token=',
    );
    await shot(page, 'webhooks');
    await page.getByRole('link', { name: 'Verifiers' }).click();
    await page.getByRole('heading', { name: 'Verifiers and configs' }).waitFor();
    await page.getByText('kyc-review').first().waitFor();
    expect(await page.locator('main').textContent(), 'no secret shown').to.not.include(
      'sandbox-key',
    );
    await shot(page, 'verifiers');
    // an admin just logged in reveals one verifier's secrets
    await page.getByRole('button', { name: 'Reveal secrets of faces' }).click();
    await page.getByText('Config, secrets shown (this read is audited)').waitFor();
    expect(await page.locator('main').textContent()).to.include('sandbox-key');
    // and edits it: a new name, the config sent back masked keeps its stored secret
    await page.getByRole('button', { name: 'Edit verifier faces' }).click();
    await page.getByLabel('Name').fill('Faces of the sandbox');
    await shot(page, 'verifier-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. The change is in the audit log.').waitFor();
    await page.getByRole('button', { name: 'Reveal secrets of Faces of the sandbox' }).click();
    await page.getByText('Config, secrets shown (this read is audited)').waitFor();
    expect(await page.locator('main').textContent()).to.include('sandbox-key');
    // a config's review: a deadline of 4 hours, four-eyes kept
    await page.getByRole('button', { name: 'Edit config kyc-review' }).click();
    await page.getByLabel('Time to decide (minutes)').fill('240');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. The change is in the audit log.').waitFor();
    const stored = await world.w
      .db('docverify.verification_configs')
      .where({ tag: 'kyc-review' })
      .first('settings');
    expect((stored as { settings: { review: unknown } }).settings.review).to.deep.equal({
      mode: 'always',
      fourEyes: true,
      slaMinutes: 240,
    });
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: /^Analytics/ }).waitFor();
    await page.getByText('No connector call in these 30 days.').waitFor();
    await shot(page, 'analytics-empty');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('cell', { name: 'console.login' }).first().waitFor();
    await page.getByRole('cell', { name: 'verifier.updated' }).first().waitFor();
    await page.getByRole('cell', { name: 'verification_config.updated' }).first().waitFor();
    await page.context().close();
  });

  it('a reviewer claims and approves a case, a senior reviewer confirms it, the caller sees the session completed', async () => {
    const { sessionId, caseId } = await world.capturedSession('user-testy-approved');
    const reviewer = await world.login(await world.w.operator(['reviewer']));
    await reviewer.getByLabel('Community').selectOption({ label: world.community.name });
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
      expect(
        await image.evaluate(
          (img: { complete: boolean; naturalWidth: number }) =>
            img.complete && img.naturalWidth > 0,
        ),
        (await image.getAttribute('alt')) ?? '',
      ).to.equal(true);
    await reviewer.getByRole('table', { name: 'Given by the caller' }).waitFor();
    expect(
      await reviewer.getByRole('cell', { name: 'user-testy-approved' }).count(),
    ).to.be.greaterThan(0);
    expect(await reviewer.locator('#checks-title + table tbody tr').count()).to.be.greaterThan(0);
    await reviewer.getByRole('button', { name: 'Claim' }).click();
    await expect(
      await eventually('the claim', async () =>
        (await stateOf(reviewer).textContent()) === 'in review' ? true : undefined,
      ),
    ).to.equal(true);
    // at tablet size too the images and the decision are on the first screen, without a scroll
    await reviewer.setViewportSize(TABLET);
    for (const selector of ['.images figure', '.case-side button[type="submit"]'])
      expect(
        await withinFirstScreen(reviewer, selector),
        `${selector} on a tablet's first screen`,
      ).to.equal(true);
    await shot(reviewer, 'case');
    await decide(reviewer, /^Approve/, 'identity_confirmed');
    await eventually('the first decision', async () =>
      (await stateOf(reviewer).textContent()) === 'awaiting second' ? true : undefined,
    );
    await reviewer.context().close();

    const senior = await world.login(
      await world.w.operator(['senior_reviewer']),
      world.casePath(caseId),
      /^Case /,
    );
    await senior.getByRole('heading', { name: 'Second review (four-eyes)' }).waitFor();
    await shot(senior, 'case-second-review');
    await decide(senior, /^Approve/, 'identity_confirmed');
    await eventually('the second decision', async () =>
      (await stateOf(senior).textContent()) === 'decided' ? true : undefined,
    );
    await senior.context().close();

    const done = await world.sessions
      .client('service')
      .waitForSession('kyc-review', sessionId, { timeoutMs: 20_000 });
    expect(done).to.include({ status: 'COMPLETED' });
  });

  it('a reviewer claims a case from the queue and asks for a resubmission, the person captures a new selfie on the capture page, the case comes back', async () => {
    // the caller gives no data of the person: the case page says so
    const { caseId } = await world.capturedSession();
    resubmitted = caseId;
    const op = await world.w.operator(['reviewer']);
    const reviewer = await world.login(op);
    await reviewer.getByLabel('Community').selectOption({ label: world.community.name });
    const row = reviewer.getByRole('row').filter({ hasText: caseId.slice(0, 8) });
    await row.getByRole('button', { name: `Claim case ${caseId.slice(0, 8)}` }).click();
    await row.filter({ hasText: 'in review' }).filter({ hasText: op.username }).waitFor();
    // the assignee filter takes the operator's username
    await reviewer.getByLabel('Assignee').fill(op.username);
    await eventually('the queue filtered by assignee', async () =>
      (await reviewer.locator('tbody tr').count()) === 1 ? true : undefined,
    );
    await row.getByRole('link', { name: caseId.slice(0, 8) }).click();
    await caseState(reviewer, 'in review');
    await reviewer
      .getByRole('cell', { name: 'The caller gave no data for this verification.' })
      .waitFor();
    await decide(reviewer, /resubmission/, 'selfie_unusable');
    await caseState(reviewer, 'resubmission requested');
    const url = await reviewer.locator('#resub-title ~ p a').getAttribute('href');
    expect(url).to.match(/\/capture\/[A-Za-z0-9_-]+$/);
    await shot(reviewer, 'case-resubmission');

    // the link names the gateway's public URL (its default port here): the same page on the suite's
    const person = await world.newPage();
    await person.goto(`${world.sessions.url}${new URL(url!).pathname}`);
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
    await person.locator('#upload-selfie').setInputFiles({
      name: 'selfie.jpg',
      mimeType: 'image/jpeg',
      buffer: world.sessions.images.selfie,
    });
    await person.getByRole('button', { name: 'Send', exact: true }).click();
    await eventually('the case back from the resubmission', async () => {
      const row = (await world.w
        .db('docverify.review_cases')
        .where({ id: caseId })
        .first('state')) as { state: string };
      return row.state === 'resubmission_requested' ? undefined : row.state;
    });
    // the person waits on the page while the case is reviewed again
    expect(await person.locator('main[data-screen]').getAttribute('data-screen')).to.equal(
      'processing',
    );
    await person.context().close();
    await reviewer.reload();
    await reviewer.getByRole('heading', { name: /^Case / }).waitFor();
    expect(await reviewer.locator('.history').textContent()).to.match(/resubmission requested/);
    await reviewer.context().close();
  });

  it('an admin erases the case after logging in again, and reads every action in the audit log', async () => {
    const admin = await world.w.operator(['admin']);
    const page = await world.login(admin, world.casePath(resubmitted!), /^Case /);
    // the login is older than 5 minutes: erasure sends the admin to the issuer first
    await world.w
      .db('console.sessions')
      .where({ username: admin.username })
      .update({ auth_time: world.w.db.raw("now() - interval '6 minutes'") });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Erase' }).click();
    await page.waitForURL(/\/community\/operators\//);
    await world.signInAtIssuer(page, admin);
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
    const more = page.getByRole('button', { name: 'Load more' });
    const rows = page.locator('tbody tr');
    while (await more.isVisible()) {
      const before = await rows.count();
      await more.click();
      // the page after a full one may be empty: then the button goes
      await eventually('the next page of the audit log', async () =>
        (await rows.count()) > before || !(await more.isVisible()) ? true : undefined,
      );
    }
    const actions = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(actions).to.include.members([
      'console.login',
      'case.data.read',
      'case.image.read',
      'case.decided',
      'data.erased',
    ]);
    await shot(page, 'audit');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('img', { name: /^Verifications per day/ }).waitFor();
    // the gateway's connector minutes: the cases' calls to the sandbox, per verifier
    await page.getByRole('img', { name: /^Connector latency/ }).waitFor();
    const connectors = page.getByRole('table', { name: /^Connector calls by verifier/ });
    await connectors.getByRole('cell', { name: /^faces/ }).waitFor();
    // the charts' labels readable at both sizes: 12 px or more as drawn
    for (const viewport of [DESKTOP, TABLET]) {
      await page.setViewportSize(viewport);
      expect(
        await smallestChartLabel(page),
        `chart labels at ${viewport.width} px wide`,
      ).to.be.at.least(12);
    }
    await shot(page, 'analytics');
    await page.context().close();
  });
});
