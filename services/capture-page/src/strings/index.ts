// The page's strings for a locale: `strings(locale)` picks the best match among the registered
// locales (English when none fits) and `fill` puts values into `{name}` placeholders. A new
// language is one file like ./en.ts, added to LOCALES.
import { en, type Strings } from './en.ts';
import type { CaptureProblem, CaptureSide } from './types.ts';

const LOCALES: Record<string, Strings> = { en };

/** The strings of `locale` ('fr-CA' falls back to 'fr', then to English). */
export function strings(locale: string | undefined): Strings {
  const wanted = (locale ?? 'en').toLowerCase();
  return LOCALES[wanted] ?? LOCALES[wanted.split(/[-_]/)[0] ?? 'en'] ?? en;
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
