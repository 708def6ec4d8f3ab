// dl_verify from the barcode: compares the submitted fields with what the licence itself says.
import type { Static } from '@sinclair/typebox';
import type { ExtractedFields, RecordCheckResult } from '@idv/contracts';

type RecordOutcome = Static<typeof RecordCheckResult>;

/** Submitted field -> the extracted field it is compared with. */
const COMPARED: Record<string, keyof ExtractedFields> = {
  firstName: 'firstName',
  lastName: 'lastName',
  dob: 'dob',
  documentId: 'documentNumber',
};

export function compareWithLicence(
  submitted: Record<string, unknown>,
  extracted: ExtractedFields,
): RecordOutcome {
  const fieldMatches: Record<string, boolean> = {};
  for (const [field, source] of Object.entries(COMPARED)) {
    const given = submitted[field];
    if (typeof given !== 'string' || given.trim() === '') continue;
    const read = extracted[source];
    fieldMatches[field] =
      read !== undefined &&
      (field === 'dob' ? isoDob(given) === read : normalise(given) === normalise(read));
  }
  const reasons = Object.entries(fieldMatches)
    .filter(([, ok]) => !ok)
    .map(([field]) => `${field}_mismatch`);
  if (Object.keys(fieldMatches).length === 0) reasons.push('no_fields_to_compare');
  const verified = reasons.length === 0;
  return { verified, status: verified ? 'verified' : 'not_verified', reasons, fieldMatches };
}

function normalise(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase();
}

/** yyyyMMdd, yyyy-MM-dd and yyyy/MM/dd (the formats the spec allows) -> yyyy-MM-dd. */
function isoDob(value: string): string | undefined {
  const digits = value.replace(/[-/]/g, '');
  return /^\d{8}$/.test(digits)
    ? `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`
    : undefined;
}
