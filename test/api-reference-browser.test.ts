// Each service's API reference (/docs, Swagger UI) in headless Chromium against the running
// services: it shows every operation of the service's /openapi.json and opens one (the docverify
// gateway's POST /verify, the oauth issuer's token endpoint, the webhooks gateway's webhook
// creation), with no CSP violation, no page error, no failed request and no request leaving the
// service's origin. Screenshots: test-artifacts/apidocs/<service>-<nn>-<step>-<size>.png.
import { mkdirSync, rmSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@idv/testing/chromium';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const ARTIFACTS = new URL('../test-artifacts/apidocs/', import.meta.url).pathname;
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** The operation each reference is opened at: its method and path as /openapi.json names them. */
const OPENED = {
  docverify: ['post', '/verify'],
  oauth: ['post', '/community/{community}/v1/token'],
  webhooks: ['put', '/tenant/{tenantId}/community/{communityId}/webhook'],
} as const;

type Service = keyof typeof OPENED;
type Document = { paths: Record<string, Record<string, unknown>> };

/** A page of `origin` recording what must not happen on it. */
async function watchedPage(browser: Browser, origin: string) {
  const context = await browser.newContext({ viewport: SIZES.desktop });
  const page = await context.newPage();
  const problems: string[] = [];
  // the event reaches a listener the CSP does not govern (an init script runs through DevTools)
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.warn('csp violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
  );
  page.on('console', (message) => {
    const text = message.text();
    if (/Content.Security.Policy|Refused to|csp violation/i.test(text))
      problems.push(`csp: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.origin !== origin) problems.push(`left: ${req.url()}`);
  });
  page.on('requestfailed', (req) => problems.push(`failed: ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
  });
  return { page, problems, close: () => context.close() };
}

/** Screenshots of the viewport at both sizes, and whether anything overflows sideways. */
async function shoot(page: Page, name: string, problems: string[], scrollTo?: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    if (scrollTo) await page.locator(scrollTo).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}${name}-${size}.png` });
    if (await page.evaluate('document.documentElement.scrollWidth > window.innerWidth'))
      problems.push(`layout: ${name} overflows sideways at ${size} size`);
  }
  await page.setViewportSize(SIZES.desktop);
}

describe('API reference in a browser (Swagger UI at /docs)', function () {
  this.timeout(120_000);
  let platform: RunningPlatform;
  let browser: Browser;

  before(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    platform = await startPlatform();
    browser = await launchChromium({
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
    await platform?.stop();
  });

  for (const service of Object.keys(OPENED) as Service[]) {
    it(`${service}: shows every operation and opens ${OPENED[service].join(' ')}`, async () => {
      const base = platform.services[service].url;
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as Document;
      const operations = Object.values(document.paths).flatMap((ops) => Object.keys(ops)).length;
      const { page, problems, close } = await watchedPage(browser, new URL(base).origin);
      try {
        await page.goto(`${base}/docs`);
        await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
        expect(await page.locator('.opblock').count()).to.equal(operations);
        await shoot(page, `${service}-01-operations`, problems);

        const [method, path] = OPENED[service];
        const opened = `.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`;
        await page.locator(`${opened} .opblock-summary-control`).click();
        await page.locator(`${opened} .responses-wrapper`).waitFor();
        const responses = page.locator(`${opened} .responses-table .response-col_status`);
        expect(await responses.allInnerTexts()).to.include.members(['200', '401']);
        await shoot(page, `${service}-02-${method}-operation`, problems, opened);
        expect(problems, 'CSP violations, page errors, requests elsewhere').to.deep.equal([]);
      } finally {
        await close();
      }
    });
  }
});
