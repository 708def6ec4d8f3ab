// GET /capture/{token}: the capture page's index.html for a session's link (200 while the session
// lives, 404 unknown, 410 ended: the page asks the API and shows the matching screen), under a
// strict Content-Security-Policy without inline scripts; and its hashed assets, cached for good.
import { GoneError, NotFoundError } from '@idv/errors';
import { NotFound, Unavailable, type Route } from '@idv/http';
import type { PageFiles } from '../capture/pageFiles.ts';
import type { SessionDeps } from '../sessions/deps.ts';
import { refuseEnded, sessionOfToken } from '../sessions/pageSession.ts';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
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

/** 200 for a live session, else the status of the error (404 unknown, 410 ended). */
async function pageStatus(deps: SessionDeps, token: string): Promise<number> {
  try {
    refuseEnded(await sessionOfToken(deps, token));
    return 200;
  } catch (err) {
    if (err instanceof NotFoundError) return 404;
    if (err instanceof GoneError) return 410;
    throw err;
  }
}

export function capturePageRoutes(deps: CapturePageDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/capture/assets/:file',
      doc: { summary: "the capture page's scripts, styles and images (hashed names, immutable)" },
      handler: async (req, res) => {
        const path = await deps.files.asset(String(req.params.file));
        if (!path) throw new NotFound(`no asset ${String(req.params.file)}`);
        res.set({
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
        });
        res.sendFile(path);
      },
    },
    {
      method: 'GET',
      path: '/capture/:token',
      doc: {
        summary:
          "the capture page of a session (HTML): 200 while the session lives, 404 for an unknown link, 410 for an ended session; the page shows each. The token is the link's only credential",
        errors: [410, 503],
      },
      handler: async (req, res) => {
        const page = await deps.files.index();
        if (!page)
          throw new Unavailable(
            'the capture page is not built (npm run build -w services/capture-page)',
            30,
          );
        const status = await pageStatus(deps, String(req.params.token));
        res.status(status).set(PAGE_HEADERS).send(page);
      },
    },
  ];
}
