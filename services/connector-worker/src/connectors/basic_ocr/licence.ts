// AAMVA barcode text of a driver's licence / ID card -> extracted fields and the checks.
import { parse } from 'aamva-parser';
import type { Static } from '@sinclair/typebox';
import type { DocumentResult, ExtractedFields } from '@idv/contracts';
import { ProviderRejected } from '../../outcomes.ts';
import { documentVerdict, isExpired, sexCode } from './verdict.ts';

type DocumentOutcome = Static<typeof DocumentResult>;

/** Jurisdictions that issue AAMVA cards: US states, DC and territories, Canadian provinces. */
const JURISDICTIONS = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH ' +
    'NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI ' +
    'AB BC MB NB NL NS NT NU ON PE QC SK YT'
  ).split(' '),
);
const REQUIRED: (keyof ExtractedFields)[] = [
  'firstName',
  'lastName',
  'dob',
  'documentNumber',
  'expiry',
];

export function licenceFields(barcodeText: string): ExtractedFields {
  if (!/ANSI ?\d{6}/.test(barcodeText)) {
    throw new ProviderRejected('the PDF417 barcode does not hold AAMVA licence data');
  }
  const card = parse(barcodeText);
  const address = [card.streetAddress, card.city, card.state, card.postalCode]
    .filter(Boolean)
    .join(', ');
  const fields: Record<string, string | undefined> = {
    firstName: card.firstName ?? undefined,
    middleName: card.middleName ?? undefined,
    lastName: card.lastName ?? undefined,
    dob: isoDate(card.dateOfBirth),
    documentNumber: card.driversLicenseId ?? undefined,
    expiry: isoDate(card.expirationDate),
    issueDate: isoDate(card.issueDate),
    issuer: card.state ?? undefined,
    country: card.countryCode ?? undefined,
    sex: sexCode(card.gender),
    address: address || undefined,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''),
  ) as ExtractedFields;
}

export function licenceResult(barcodeText: string, today: Date): DocumentOutcome {
  const extracted = licenceFields(barcodeText);
  const todayIso = today.toISOString().slice(0, 10);
  const checks = {
    requiredFields: REQUIRED.every((k) => extracted[k] !== undefined),
    notExpired: extracted.expiry !== undefined && !isExpired(extracted.expiry, today),
    issued: extracted.issueDate === undefined || extracted.issueDate <= todayIso,
    issuerKnown: extracted.issuer !== undefined && JURISDICTIONS.has(extracted.issuer),
  };
  return documentVerdict(extracted, checks);
}

// aamva-parser builds dates at UTC midnight, so the ISO date part is the printed date.
function isoDate(date: Date | null | undefined): string | undefined {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString().slice(0, 10) : undefined;
}
