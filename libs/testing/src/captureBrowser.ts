// The capture page in headless Chromium for the browser suites: the built page (built here when
// missing), a fake camera fed from a generated Y4M video (a card with a face, or an empty room),
// screenshots of each step at phone and desktop sizes under test-artifacts/capture/<journey>/,
// each checked by axe-core (WCAG 2.1 A/AA), and a watch on CSP violations and page errors.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Jimp } from 'jimp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { selfieImage } from '@idv/samples/captureImages';
import { cameraFrame } from '@idv/samples/idDocuments';
import { launchChromium } from './chromium.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
export const PAGE_DIST = `${ROOT}services/capture-page/dist`;
export const ARTIFACTS = `${ROOT}test-artifacts/capture`;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** The newest modification time (ms) of the page's sources. */
function newestSource(): number {
  const page = `${ROOT}services/capture-page`;
  const files = readdirSync(`${page}/src`, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const all = [...files, `${page}/index.html`, `${page}/vite.config.ts`, `${page}/package.json`];
  return Math.max(...all.map((file) => statSync(file).mtimeMs));
}

/** The built page's directory, built first when missing or older than its sources (as make does). */
export function builtPage(): string {
  const index = `${PAGE_DIST}/index.html`;
  if (!existsSync(index) || statSync(index).mtimeMs < newestSource())
    execFileSync('npm', ['run', '-s', 'build', '-w', 'services/capture-page'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  return PAGE_DIST;
}

/** A one-frame Y4M video (4:2:0) of `image`, which Chromium's fake camera loops. */
function y4mVideo(path: string, image: InstanceType<typeof Jimp>): string {
  const { data, width, height } = image.bitmap;
  const y = Buffer.alloc(width * height);
  const cw = width / 2;
  const ch = height / 2;
  const u = Buffer.alloc(cw * ch);
  const v = Buffer.alloc(cw * ch);
  for (let row = 0; row < height; row++)
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 4;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      y[row * width + col] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * cw + col / 2;
        u[c] = Math.max(0, Math.min(255, Math.round(128 - 0.1687 * r - 0.3313 * g + 0.5 * b)));
        v[c] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.4187 * g - 0.0813 * b)));
      }
    }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`);
  writeFileSync(path, Buffer.concat([header, y, u, v]));
  return path;
}

/**
 * The fake camera's video: a card that passes every capture check of a licence journey
 * (cameraFrame), its portrait a face the selfie camera's detector finds.
 */
export async function fakeCameraVideo(path: string, width = 1280, height = 720): Promise<string> {
  return y4mVideo(path, await cameraFrame(width, height));
}

/** A fake camera's video of an empty room: no face for the selfie camera to find. */
export function facelessCameraVideo(path: string, width = 1280, height = 720): string {
  return y4mVideo(path, selfieImage(width, height, 11, false));
}

/** One Chromium for a suite, with a fake camera showing `video`. */
export function launchBrowser(video: string): Promise<Browser> {
  return launchChromium({
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}

export interface Journey {
  page: Page;
  context: BrowserContext;
  /** CSP violations, page errors and layout faults (sideways overflow, small buttons) so far */
  problems: string[];
  /** screenshots of the current screen at phone and desktop size: <nn>-<step>-<size>.png */
  shot(step: string): Promise<void>;
  close(): Promise<void>;
}

let axe: string | undefined;
/** axe-core's script, read once. */
const axeSource = () =>
  (axe ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/** A fresh context (phone: touch, 390x844; desktop: mouse, 1280x800) for one journey. */
export async function openJourney(
  browser: Browser,
  name: string,
  device: 'phone' | 'desktop' = 'phone',
): Promise<Journey> {
  const dir = `${ARTIFACTS}/${name}`;
  rmSync(dir, { recursive: true, force: true }); // no screenshot of an earlier run stays beside
  mkdirSync(dir, { recursive: true });
  const phone = device === 'phone';
  const context = await browser.newContext({
    viewport: phone ? PHONE : DESKTOP,
    hasTouch: phone,
    isMobile: phone,
    permissions: ['camera'],
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content.Security.Policy|Refused to/i.test(text)) problems.push(`csp: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  let count = 0;
  return {
    page,
    context,
    problems,
    async shot(step) {
      const nn = String(++count).padStart(2, '0');
      const sizes = phone
        ? ([
            ['phone', PHONE],
            ['desktop', DESKTOP],
          ] as const)
        : ([
            ['desktop', DESKTOP],
            ['phone', PHONE],
          ] as const);
      for (const [size, viewport] of sizes) {
        await page.setViewportSize(viewport);
        await page.screenshot({ path: `${dir}/${nn}-${step}-${size}.png`, fullPage: true });
        // nothing wider than the screen, and every button a finger can hit (44 px)
        // axe-core (WCAG 2.1 A and AA), evaluated through DevTools, which the page's CSP does not govern
        const violations = (await page.evaluate(
          `${axeSource()}; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
        )) as string[];
        for (const violation of violations)
          problems.push(`axe: ${step} at ${size} size: ${violation}`);
        const wide = await page.evaluate(
          'document.documentElement.scrollWidth > window.innerWidth',
        );
        if (wide) problems.push(`layout: ${step} overflows sideways at ${size} size`);
        for (const button of await page.locator('.button').all()) {
          const box = await button.boundingBox();
          if (box && box.height < 44)
            problems.push(`layout: a ${box.height}px button on ${step} at ${size} size`);
        }
      }
      await page.setViewportSize(phone ? PHONE : DESKTOP);
    },
    close: () => context.close(),
  };
}
