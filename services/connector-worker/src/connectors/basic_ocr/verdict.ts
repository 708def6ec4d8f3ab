// Turns named document checks into the normalised verdict: verified only when every check passed.
import type { Static } from '@sinclair/typebox';
import type { DocumentResult, ExtractedFields } from '@idv/contracts';

type DocumentOutcome = Static<typeof DocumentResult>;

/** Machine-readable reason for each failed check. */
const REASONS: Record<string, string> = {
  notExpired: 'document_expired',
  checkDigits: 'check_digit_mismatch',
  issuerKnown: 'unknown_issuer',
  fieldsValid: 'invalid_fields',
  requiredFields: 'missing_fields',
  issued: 'issue_date_in_future',
};

export function documentVerdict(
  extracted: ExtractedFields,
  checks: Record<string, boolean>,
): DocumentOutcome {
  const reasons = Object.entries(checks)
    .filter(([, passed]) => !passed)
    .map(([name]) => REASONS[name] ?? name);
  const verified = reasons.length === 0;
  return { verified, status: verified ? 'verified' : 'not_verified', reasons, extracted, checks };
}

/** A document is valid through its expiry day (dates compared as YYYY-MM-DD in UTC). */
export function isExpired(expiry: string, today: Date): boolean {
  return expiry < today.toISOString().slice(0, 10);
}

/** 'male' / 'Male' / 'M' -> 'M', likewise F; anything else stated -> 'X'. */
export function sexCode(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const first = value.trim().charAt(0).toUpperCase();
  if (first === 'M' || first === 'F') return first;
  return first === 'U' ? undefined : 'X';
}
