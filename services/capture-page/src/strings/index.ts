// The page's strings for a locale: `pickLocale` chooses the language (the person's own choice on
// the page, then the caller's sessionRequest.locale, then the browser's languages, then English),
// `strings(locale)` gives its texts, and `fill` puts values into `{name}` placeholders. A new
// language is one file like ./en.ts, added to LOCALES and LANGUAGES.
import { en, type Strings } from './en.ts';
import { es } from './es.ts';
import type { CaptureProblem, CaptureSide } from './types.ts';

const LOCALES: Record<string, Strings> = { en, es };

/** The languages the page offers, each named in itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
] as const;

/** The registered locale `locale` falls to ('es-MX' to 'es'), if any. */
function registered(locale: string | null | undefined): string | undefined {
  if (!locale) return undefined;
  const wanted = locale.toLowerCase();
  if (LOCALES[wanted]) return wanted;
  const language = wanted.split(/[-_]/)[0] ?? '';
  return LOCALES[language] ? language : undefined;
}

/** The first of `wishes` the page speaks, else English. */
export function pickLocale(...wishes: (string | null | undefined)[]): string {
  for (const wish of wishes) {
    const found = registered(wish);
    if (found) return found;
  }
  return 'en';
}

/** The strings of `locale` ('fr-CA' falls back to 'fr', then to English). */
export function strings(locale: string | null | undefined): Strings {
  return LOCALES[pickLocale(locale)] ?? en;
}

/** `text` with each `{name}` replaced by values[name]. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) =>
    name in values ? String(values[name]) : all,
  );
}

/** The advice for `code` on a photo of `side`: the side's own when it has one. */
export function advice(text: Strings, side: CaptureSide, code: CaptureProblem): string {
  return text.sideProblems[side]?.[code] ?? text.problems[code] ?? text.problemTitle;
}

export type { Strings };
