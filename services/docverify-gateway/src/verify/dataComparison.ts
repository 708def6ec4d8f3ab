// Compares what a document yielded (names, dob) with what the caller sent, per the config's
// dataComparisonAttributes: eq, or fuzzyMatch with a token-set ratio after normalisation.
import * as fuzzballModule from 'fuzzball';
import type { ExtractedFields, VerificationSettings } from '@idv/contracts';
import { DEFAULT_MIN_MATCH_SCORE } from '../verificationConfigs/comparisonCriteria.ts';

// fuzzball ships CommonJS; under ESM interop its functions may sit on `default`.
const fuzzball = ((fuzzballModule as unknown as { default?: typeof fuzzballModule }).default ??
  fuzzballModule) as typeof fuzzballModule;

type Attribute = NonNullable<VerificationSettings['dataComparisonAttributes']>[number];

export interface FieldComparison {
  field: 'firstName' | 'lastName' | 'dob';
  submitted: boolean;
  score: number;
  passed: boolean;
}

const FIELD_OF: Record<Attribute['module'], FieldComparison['field']> = {
  'firstname check': 'firstName',
  'lastname check': 'lastName',
  'dob check': 'dob',
};

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

/**
 * Latin letters whose stroke NFD leaves on (it is part of the letter, not a combining mark) lose
 * it as an accent does; letters with no base letter are spelled out as passports' MRZ does.
 */
const FOLDED: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
};

/**
 * Case, accents, punctuation and generational suffixes do not count as differences: apostrophes go,
 * other punctuation is a space between names.
 */
export function normaliseName(name: string, ignoreMiddleNames = false): string {
  const tokens = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[łøđðħŧıßæœþ]/gu, (letter) => FOLDED[letter] ?? letter)
    // an apostrophe joins the parts of one name (O'Testface), which a passport's MRZ writes as
    // one (OTESTFACE); other punctuation separates names
    .replace(/['‘’ʼ`´]/gu, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((token) => token && !SUFFIXES.has(token));
  return (ignoreMiddleNames ? tokens.slice(0, 1) : tokens).join(' ');
}

/** Dates as YYYY-MM-DD from YYYYMMDD, YYYY-MM-DD, YYYY/MM/DD or MM/DD/YYYY; undefined otherwise. */
export function normaliseDate(value: string): string | undefined {
  const iso = /^(\d{4})[-/]?(\d{2})[-/]?(\d{2})$/.exec(value.trim());
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  return us ? `${us[3]}-${us[1]}-${us[2]}` : undefined;
}

function compare(attribute: Attribute, submitted: string, extracted: string): number {
  const field = FIELD_OF[attribute.module];
  if (field === 'dob')
    return normaliseDate(submitted) !== undefined &&
      normaliseDate(submitted) === normaliseDate(extracted)
      ? 100
      : 0;
  const ignore = attribute.criteria.ignoreMiddleNames ?? false;
  const [a, b] = [normaliseName(submitted, ignore), normaliseName(extracted, ignore)];
  if (attribute.criteria.value === 'eq') return a === b && a !== '' ? 100 : 0;
  // token_set_ratio alone scores 100 when one side's tokens are a subset of the other's, so a
  // list of many names would pass; the sorted-token ratio penalises the extra tokens
  return Math.min(
    fuzzball.token_set_ratio(a, b, { full_process: false }),
    fuzzball.token_sort_ratio(a, b, { full_process: false }),
  );
}

/** One comparison per configured attribute whose field the document yielded. */
export function compareData(
  attributes: Attribute[],
  submitted: Record<string, unknown>,
  extracted: ExtractedFields,
): FieldComparison[] {
  return attributes.flatMap((attribute): FieldComparison[] => {
    const field = FIELD_OF[attribute.module];
    const found = extracted[field];
    if (!found) return [];
    const given = submitted[field];
    if (typeof given !== 'string' || given === '')
      return [{ field, submitted: false, score: 0, passed: false }];
    const score = compare(attribute, given, found);
    const threshold =
      attribute.criteria.value === 'fuzzyMatch' && field !== 'dob'
        ? (attribute.criteria.minMatchScore ?? DEFAULT_MIN_MATCH_SCORE)
        : 100;
    return [{ field, submitted: true, score, passed: score >= threshold }];
  });
}
