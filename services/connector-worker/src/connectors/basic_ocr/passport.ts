// Passport MRZ lines -> extracted fields and the checks: check digits, issuer known, not expired.
import { parse, type ParseResult } from 'mrz';
import type { Static } from '@sinclair/typebox';
import type { DocumentResult, ExtractedFields } from '@idv/contracts';
import { ProviderRejected } from '../../outcomes.ts';
import { documentVerdict, isExpired, sexCode } from './verdict.ts';

type DocumentOutcome = Static<typeof DocumentResult>;

export function passportResult(lines: string[], today: Date): DocumentOutcome {
  let mrz: ParseResult;
  try {
    mrz = parse(lines, { autocorrect: true });
  } catch (err) {
    throw new ProviderRejected(`no machine readable zone found: ${(err as Error).message}`);
  }
  const f = mrz.fields;
  const details = mrz.details;
  const extracted: ExtractedFields = stripEmpty({
    firstName: f.firstName?.split(' ')[0],
    middleName: f.firstName?.split(' ').slice(1).join(' '),
    lastName: f.lastName ?? undefined,
    dob: mrzDate(f.birthDate, 'past', today),
    documentNumber: mrz.documentNumber ?? f.documentNumber ?? undefined,
    expiry: mrzDate(f.expirationDate, 'future', today),
    issuer: f.issuingState ?? undefined,
    country: f.nationality ?? undefined,
    sex: sexCode(f.sex),
  });
  const checks = {
    checkDigits: details.filter((d) => /check digit/i.test(d.label)).every((d) => d.valid),
    issuerKnown: details.find((d) => d.field === 'issuingState')?.valid === true,
    notExpired: extracted.expiry !== undefined && !isExpired(extracted.expiry, today),
    fieldsValid: details.filter((d) => !/check digit/i.test(d.label)).every((d) => d.valid),
  };
  return documentVerdict(extracted, checks);
}

/** YYMMDD -> YYYY-MM-DD; birth dates lie in the past, expiry dates at most 50 years ahead. */
function mrzDate(
  value: string | null | undefined,
  side: 'past' | 'future',
  today: Date,
): string | undefined {
  if (!value || !/^\d{6}$/.test(value)) return undefined;
  const latest = today.getUTCFullYear() + (side === 'past' ? 0 : 50);
  const year = 2000 + Number(value.slice(0, 2));
  return `${year > latest ? year - 100 : year}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
}

function stripEmpty(fields: Record<string, string | undefined>): ExtractedFields {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''),
  ) as ExtractedFields;
}
