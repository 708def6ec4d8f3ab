// The sandbox's obviously fake world: people, licences, faces, liveness samples and documents.
// Images are base64 strings whose decoded bytes name the fixture, so answers follow from content.
import { embeddedFixture } from './embeddedFixture.ts';

export interface Person {
  firstName: string;
  lastName: string;
  dob: string; // yyyy-MM-dd
  ssn: string; // digits
  street: string;
  city: string;
  state: string;
  zipCode: string;
}

/** Testy is the match; Fakey exists but other submitted values mismatch; anyone else is unknown. */
export const PEOPLE: Person[] = [
  {
    firstName: 'Testy',
    lastName: 'McTestface',
    dob: '1970-01-01',
    ssn: '000000000',
    street: '1 Test Street',
    city: 'Testville',
    state: 'CA',
    zipCode: '90000',
  },
  {
    firstName: 'Fakey',
    lastName: 'Fakerson',
    dob: '1980-02-02',
    ssn: '000000001',
    street: '2 Fake Road',
    city: 'Fakeburg',
    state: 'NY',
    zipCode: '10000',
  },
];

export interface Licence {
  documentId: string;
  state: string;
  person: Person;
  doi: string;
  doe: string;
}

export const LICENCES: Licence[] = PEOPLE.map((person, i) => ({
  documentId: `D000000${i + 1}`,
  state: person.state,
  person,
  doi: '2020-01-01',
  doe: '2030-01-01',
}));

const norm = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');
const isoDate = (value: unknown) =>
  typeof value === 'string' ? value.replace(/^(\d{4})[-/]?(\d{2})[-/]?(\d{2})$/, '$1-$2-$3') : '';

/** The record with these names (case-insensitive), or by SSN when only that is given. */
export function findPerson(query: Record<string, unknown>): Person | undefined {
  const ssn = typeof query.ssn === 'string' ? query.ssn.replace(/\D/g, '') : '';
  return PEOPLE.find(
    (p) =>
      (norm(query.firstName) === norm(p.firstName) && norm(query.lastName) === norm(p.lastName)) ||
      (!query.firstName && ssn !== '' && ssn === p.ssn),
  );
}

/** Per submitted field: does it equal the record's value? Unsubmitted fields are left out. */
export function compareFields(
  record: Record<string, string>,
  submitted: Record<string, unknown>,
): Record<string, boolean> {
  const matches: Record<string, boolean> = {};
  for (const [field, value] of Object.entries(submitted)) {
    if (!(field in record) || value === undefined || value === '') continue;
    const left =
      field === 'dob' || field === 'doe' || field === 'doi' ? isoDate(value) : norm(value);
    const right = field === 'ssn' ? record[field] : norm(record[field]);
    matches[field] = field === 'ssn' ? String(value).replace(/\D/g, '') === right : left === right;
  }
  return matches;
}

/**
 * The text of a base64 image: the fixture names a PNG or JPEG carries inside (one per line, see
 * embeddedFixture.ts), else its decoded bytes; '' when it is not base64 text.
 */
export function imageText(base64: unknown): string {
  if (typeof base64 !== 'string' || !/^[A-Za-z0-9+/=\s]+$/.test(base64)) return '';
  const bytes = Buffer.from(base64, 'base64');
  return embeddedFixture(bytes) ?? bytes.toString('utf8');
}

// The fixture patterns match at the start of any line: an image may name several fixtures.

/** "FACE:<name>" is the face of <name>; anything else holds no face. */
export function faceOf(text: string): string | undefined {
  const match = /^FACE:([A-Za-z0-9_-]+)/m.exec(text);
  return match?.[1];
}

/** Liveness score 0..1: "LIVE:<score>" or "LIVE" (0.97), "SPOOF" (0.03); else undefined. */
export function livenessOf(text: string): number | undefined {
  if (/^SPOOF/m.test(text)) return 0.03;
  const match = /^LIVE(?::([01](?:\.\d+)?))?/m.exec(text);
  if (!match) return undefined;
  return match[1] === undefined ? 0.97 : Number(match[1]);
}

export interface DocumentFixture {
  genuine: boolean;
  expired: boolean;
  licence: Licence;
}

/** "DOC:testy" genuine and valid; "DOC:forged" tampered; "DOC:expired" genuine but expired. */
export function documentOf(text: string): DocumentFixture | undefined {
  const match = /^DOC:([a-z]+)/m.exec(text);
  const testy = LICENCES[0];
  if (!match || !testy) return undefined;
  if (match[1] === 'testy') return { genuine: true, expired: false, licence: testy };
  if (match[1] === 'forged') return { genuine: false, expired: false, licence: testy };
  if (match[1] === 'expired') {
    return { genuine: true, expired: true, licence: { ...testy, doe: '2001-01-01' } };
  }
  return undefined;
}

/** Valid credentials all start with "sandbox"; anything else is refused like a wrong key. */
export const isSandboxSecret = (value: unknown): boolean =>
  typeof value === 'string' && value.startsWith('sandbox');

/** The cloud access key and secret the signed face API knows. */
export const CLOUD_ACCESS_KEY = 'AKIASANDBOXTESTY0000';
export const CLOUD_SECRET_KEY = 'sandbox-cloud-secret';
