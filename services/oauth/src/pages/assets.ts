// The sign-in pages' stylesheet and script, read once at start and served with a version in
// their URLs (cached for good), and each community's branding: its accent colour and logo.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { NotFound } from '@idv/http';
import type { CommunityIssuer } from '../providerCache.ts';
import type { SignInSettingsStore } from '../store/signInSettings.ts';

const FILES = { 'signin.css': 'text/css', 'signin.js': 'text/javascript' } as const;
type AssetName = keyof typeof FILES;

export interface PageAssets {
  version: string;
  serve(req: Request, res: Response): void;
}

export function pageAssets(): PageAssets {
  const bodies = Object.fromEntries(
    Object.keys(FILES).map((name) => [
      name,
      readFileSync(new URL(`./assets/${name}`, import.meta.url)),
    ]),
  ) as Record<AssetName, Buffer>;
  const hash = createHash('sha256');
  for (const body of Object.values(bodies)) hash.update(body);
  const version = hash.digest('base64url').slice(0, 12);
  return {
    version,
    serve(req, res) {
      const name = String(req.params.file) as AssetName;
      if (!Object.hasOwn(FILES, name)) throw new NotFound(`no asset ${name}`);
      res
        .set({
          'Content-Type': `${FILES[name]}; charset=utf-8`,
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(bodies[name]);
    },
  };
}

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const hexOf = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = channels(hex).map((c) => linear(c / 255));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

/**
 * The colours a community's accent gives the page, each readable (WCAG AA, 4.5:1): the text on
 * accent-coloured buttons (black or white), and the accent as text on white (darkened as far as
 * it must be: a pale brand colour still gives readable links).
 */
export function accentColours(accent: string): { text: string; ink: string } {
  const text = contrast(accent, '#ffffff') >= contrast(accent, '#111111') ? '#ffffff' : '#111111';
  let ink = accent;
  for (let k = 0.9; contrast(ink, '#ffffff') < 4.5 && k > 0; k -= 0.1)
    ink = hexOf(channels(accent).map((c) => Math.round(c * k)));
  return { text, ink };
}

export function brandingCss(settings: SignInSettingsStore) {
  return async (_req: Request, res: Response) => {
    const { community } = res.locals.issuer as CommunityIssuer;
    const { accentColor } = await settings.get(community);
    // the colour was checked as #rrggbb when set: nothing else can reach the stylesheet
    const colours =
      accentColor && /^#[0-9a-f]{6}$/i.test(accentColor) ? accentColours(accentColor) : undefined;
    const css = colours
      ? `:root{--accent:${accentColor};--accent-text:${colours.text};--accent-ink:${colours.ink}}\n`
      : '';
    res
      .set({
        'Content-Type': 'text/css; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(css);
  };
}

export function brandingLogo(settings: SignInSettingsStore) {
  return async (_req: Request, res: Response) => {
    const { community } = res.locals.issuer as CommunityIssuer;
    const logo = await settings.logo(community.id);
    if (!logo) throw new NotFound('this community has no logo');
    res
      .set({
        'Content-Type': logo.type,
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
      })
      .send(logo.bytes);
  };
}
