// Builders of the normalised results, so every adapter states verified / status / score the same way.
import type { NormalisedResult } from '@idv/contracts';

type Status = NormalisedResult['status'];

const clampScore = (score: number) => Math.max(0, Math.min(100, Math.round(score * 100) / 100));

/** A yes/no answer with an optional 0..100 score and the reasons of a negative one. */
export function decision(
  verified: boolean,
  reasons: string[] = [],
  extra: { score?: number | undefined; status?: Status } = {},
): { verified: boolean; status: Status; reasons: string[]; score?: number } {
  const status = extra.status ?? (verified ? 'verified' : 'not_verified');
  const base = { verified: status === 'verified', status, reasons: verified ? [] : reasons };
  return extra.score === undefined ? base : { ...base, score: clampScore(extra.score) };
}

/** The provider could not decide (no face, pending review): neither verified nor refused. */
export function inconclusive(reasons: string[]): ReturnType<typeof decision> {
  return decision(false, reasons, { status: 'inconclusive' });
}

/** Per-field booleans of a record check; verified only when every compared field matched. */
export function fieldDecision(
  found: boolean,
  fieldMatches: Record<string, boolean>,
  score?: number,
): NormalisedResult {
  if (!found) return decision(false, ['record_not_found'], { score: 0 });
  const mismatched = Object.entries(fieldMatches)
    .filter(([, match]) => !match)
    .map(([field]) => `${field}_mismatch`);
  return { ...decision(mismatched.length === 0, mismatched, { score }), fieldMatches };
}

export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

export const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Only the members that are set, so exactOptionalPropertyTypes holds and no empty keys leak. */
export function defined<T extends Record<string, unknown>>(
  record: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) => v !== undefined && v !== ''),
  ) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
