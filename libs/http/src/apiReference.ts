// The API reference at GET /docs: Swagger UI (swagger-ui-dist, Apache-2.0, served from
// node_modules) reading the service's own /openapi.json, under a Content-Security-Policy with
// nothing inline and nothing from elsewhere; its files at GET /docs/{asset}, named by a fixed list
// (nothing else of the package, nor any other path, is reachable), versioned in the page's links
// and then cached for good.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { NotFound } from './errors.ts';
import { fixedBody, type FixedBody } from './fixedBody.ts';

/** script-src and style-src 'self' only: Swagger UI styles through its stylesheet and CSSOM. */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // the stylesheet draws its arrows and checkboxes as data: SVGs
  "img-src 'self' data:",
  // the document, and "Try it out" calls, to this service only
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': API_REFERENCE_CSP,
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-cache',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/** The files the page links: where each comes from and its type. */
const ASSETS = {
  'swagger-ui-bundle.js': { from: 'viewer', type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { from: 'viewer', type: 'text/css; charset=utf-8' },
  // the viewer's own page style: no body margin, its background
  'index.css': { from: 'viewer', type: 'text/css; charset=utf-8' },
  'favicon-32x32.png': { from: 'viewer', type: 'image/png' },
  'swagger-initializer.js': { from: 'ours', type: 'text/javascript; charset=utf-8' },
  // our few rules over the viewer's (long group names wrap at phone size)
  'reference.css': { from: 'ours', type: 'text/css; charset=utf-8' },
} as const;
type AssetName = keyof typeof ASSETS;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );

/**
 * The page: links relative to /docs (so a proxy's path prefix carries through), the document's URL
 * given to the initializer as an attribute, and the document's link for a browser without script.
 */
function pageHtml(title: string, version: string): string {
  const asset = (name: AssetName) => `docs/${name}?v=${version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('index.css')}">
<link rel="stylesheet" href="${asset('reference.css')}">
<link rel="icon" type="image/png" sizes="32x32" href="${asset('favicon-32x32.png')}">
</head>
<body>
<noscript><p>This reference needs JavaScript. The OpenAPI document it shows is <a href="openapi.json">/openapi.json</a>.</p></noscript>
<div id="swagger-ui" data-url="openapi.json"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('swagger-initializer.js')}"></script>
</body>
</html>
`;
}

export interface ApiReference {
  page(req: Request, res: Response): void;
  asset(req: Request, res: Response): Promise<void>;
}

export function apiReference(title: string): ApiReference {
  const viewer = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const ours = fileURLToPath(new URL('./assets/', import.meta.url));
  const pathOf = (name: AssetName) => join(ASSETS[name].from === 'viewer' ? viewer : ours, name);
  // the viewer's package version and our files name every file's content
  const version = createHash('sha256')
    .update(readFileSync(join(viewer, 'package.json')))
    .update(readFileSync(pathOf('swagger-initializer.js')))
    .update(readFileSync(pathOf('reference.css')))
    .digest('base64url')
    .slice(0, 12);
  const page = Buffer.from(pageHtml(title, version));
  const bodies = new Map<AssetName, FixedBody>(
    Object.entries(ASSETS).map(([name, { type }]) => [
      name as AssetName,
      fixedBody(() => readFile(pathOf(name as AssetName)), !type.startsWith('image/')),
    ]),
  );
  return {
    page(req, res) {
      // relative links read from /docs/ would point under it
      if (req.path.endsWith('/')) return res.redirect(308, '../docs');
      res.set(PAGE_HEADERS).send(page);
    },
    async asset(req, res) {
      const name = String(req.params.asset);
      const body = Object.hasOwn(ASSETS, name) ? bodies.get(name as AssetName) : undefined;
      if (!body) throw new NotFound(`no asset ${name} of the API reference`);
      res.set({
        'Content-Type': ASSETS[name as AssetName].type,
        // a link of an earlier version (or none) is answered with this one, not kept for good
        'Cache-Control':
          req.query.v === version ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      await body.send(req, res);
    },
  };
}
