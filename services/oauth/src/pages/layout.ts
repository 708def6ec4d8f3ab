// The frame every sign-in page shares: the community's name and logo, its accent colour (from a
// stylesheet: the CSP allows no inline style), the page's script (passkeys), and the CSP itself.
import { escapeHtml, type Locale, type Translate } from './strings.ts';

export interface PageFrame {
  t: Translate;
  locale: Locale;
  /** /community/{name}/v1 of the issuer: assets and branding are served under it */
  base: string;
  /** versions of the static assets, for URLs cached for good */
  assetVersion: string;
  community: { displayName: string; logoVersion: string | null; brandVersion: string | null };
}

/** title: HTML text, escaped already (as the translations give it) */
export function layout(frame: PageFrame, title: string, body: string): string {
  const { base, assetVersion, community } = frame;
  const brandCss = community.brandVersion
    ? `<link rel="stylesheet" href="${base}/branding.css?v=${escapeHtml(community.brandVersion)}">`
    : '';
  const logo = community.logoVersion
    ? `<img class="logo" src="${base}/branding/logo?v=${escapeHtml(community.logoVersion)}" alt="">`
    : '';
  return `<!doctype html>
<html lang="${frame.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${escapeHtml(community.displayName)}</title>
<link rel="stylesheet" href="${base}/assets/signin.css?v=${assetVersion}">
${brandCss}
<script src="${base}/assets/signin.js?v=${assetVersion}" defer></script>
</head>
<body>
<main class="card">
<header class="brand">${logo}<p class="community">${escapeHtml(community.displayName)}</p></header>
${body}
</main>
</body>
</html>`;
}

/**
 * The pages' Content-Security-Policy: nothing inline, nothing from elsewhere. The forms may
 * also lead to the client's redirect_uri: browsers apply form-action to the redirects that
 * follow a form's submission, and the sign-in ends with one to the client.
 */
export function pageCsp(redirectUri: unknown): string {
  const target = typeof redirectUri === 'string' ? URL.parse(redirectUri) : null;
  const origin = target && ['http:', 'https:'].includes(target.protocol) ? ` ${target.origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self'${origin}`,
  ].join('; ');
}

export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

/** An alert region: the message read out by screen readers as it appears. */
export const alert = (message: string | undefined) =>
  message ? `<p class="alert" role="alert">${message}</p>` : '';
