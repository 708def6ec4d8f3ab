// GET /capture/{token}: the capture page's index.html for a session's link (200 while the session
// lives, 404 unknown, 410 ended: a browser gets the page, which asks the API and shows the
// matching screen; any other client the error body), under a strict Content-Security-Policy
// without inline scripts; and its hashed assets (scripts, styles, images, the face detector's
// weights and WebAssembly), cached for good, brotli or gzip compressed for a browser that takes
// it (the build writes the copies).
import { GoneError, NotFoundError } from '@idv/errors';
import { NotFound, Unavailable, type Route } from '@idv/http';
import { ASSET_ENCODINGS, type AssetEncoding, type PageFiles } from './pageFiles.ts';
import { logoImage } from '../verificationConfigs/branding.ts';
import type { SessionDeps } from '../sessions/deps.ts';
import { refuseEnded, sessionOfToken } from './pageSession.ts';

export const PAGE_CSP = [
  "default-src 'none'",
  // WebAssembly may compile (the selfie's face detector, 14 times faster than in JavaScript); no
  // eval, no inline script
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': PAGE_CSP,
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Permissions-Policy': 'camera=(self)',
  'X-Content-Type-Options': 'nosniff',
  'Content-Type': 'text/html; charset=utf-8',
};

export interface CapturePageDeps extends SessionDeps {
  files: PageFiles;
}

/** undefined for a live session, else why not (unknown: 404, ended: 410). */
async function pageRefusal(
  deps: SessionDeps,
  token: string,
): Promise<NotFoundError | GoneError | undefined> {
  try {
    refuseEnded(await sessionOfToken(deps, token));
    return undefined;
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof GoneError) return err;
    throw err;
  }
}

/** The encodings the build writes that the client takes, in its order of preference. */
const acceptedEncodings = (accepted: string[]): AssetEncoding[] =>
  accepted.filter((e): e is AssetEncoding => e in ASSET_ENCODINGS);

const STATUS = (refusal: NotFoundError | GoneError) => (refusal instanceof GoneError ? 410 : 404);

export function capturePageRoutes(deps: CapturePageDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/capture/assets/:file',
      doc: {
        summary:
          "the capture page's scripts, styles and images (hashed names, immutable; brotli or gzip by Accept-Encoding)",
      },
      handler: async (req, res) => {
        const name = String(req.params.file);
        const found = await deps.files.asset(name, acceptedEncodings(req.acceptsEncodings()));
        if (!found) throw new NotFound(`no asset ${name}`);
        res
          .set({
            'Cache-Control': 'public, max-age=31536000, immutable',
            'X-Content-Type-Options': 'nosniff',
            Vary: 'Accept-Encoding',
            ...(found.encoding ? { 'Content-Encoding': found.encoding } : {}),
          })
          // the asset's own type, not its compressed copy's
          .type(name)
          .sendFile(found.path);
      },
    },
    {
      method: 'GET',
      path: '/capture/',
      doc: {
        summary:
          'the capture page without a link token: to a browser (text/html) the page, saying the link does not work; to other clients 404 with the error body',
        errors: [404],
      },
      handler: async (req, res) => {
        const refusal = new NotFoundError(
          'no identity check link: open the whole link you were sent',
        );
        const page =
          req.accepts(['application/json', 'text/html']) === 'text/html'
            ? await deps.files.index()
            : undefined;
        if (!page) throw refusal;
        res.set(PAGE_HEADERS).send(page);
      },
    },
    {
      method: 'GET',
      path: '/capture/:token/logo',
      secretPath: true,
      doc: {
        summary:
          "the logo of the session's business (its config's branding), PNG or WebP; the page's session view names it with a version, so it is cached for good; 404 without one",
        errors: [404],
      },
      handler: async (req, res) => {
        const session = await sessionOfToken(deps, String(req.params.token));
        const [config] = await deps.configs.findCached([session.communityId], session.configId);
        const logo = config?.settings.branding?.logo;
        if (!logo) throw new NotFound('this verification has no logo');
        const image = logoImage(logo);
        res
          .set({
            'Cache-Control': 'private, max-age=31536000, immutable',
            'X-Content-Type-Options': 'nosniff',
            'Content-Security-Policy': "default-src 'none'",
            'Referrer-Policy': 'no-referrer',
          })
          .type(image.type)
          .send(image.bytes);
      },
    },
    {
      method: 'GET',
      path: '/capture/:token',
      secretPath: true,
      doc: {
        summary:
          "the capture page of a session (HTML): 200 while the session lives, 404 for an unknown link, 410 for an ended session (a browser, accepting text/html, gets the page, which shows a screen for each; other clients the error body). The token is the link's only credential",
        errors: [410, 503],
      },
      handler: async (req, res) => {
        const refusal = await pageRefusal(deps, String(req.params.token));
        // a browser asks for HTML and gets the page's own screen for the refusal
        const browser = req.accepts(['application/json', 'text/html']) === 'text/html';
        if (refusal && !browser) throw refusal;
        const page = await deps.files.index();
        if (!page && refusal) throw refusal;
        if (!page)
          throw new Unavailable(
            'the capture page is not built (npm run build -w services/capture-page)',
            30,
          );
        res
          .status(refusal ? STATUS(refusal) : 200)
          .set(PAGE_HEADERS)
          .send(page);
      },
    },
  ];
}
