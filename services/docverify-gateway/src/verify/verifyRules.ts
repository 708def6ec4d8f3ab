// The rules of spec 2.2 that depend on which kinds are requested (the schema checks the types).
import type { ValidationIssue, VerificationKind, VerifyRequest } from '@idv/contracts';

type Document = VerifyRequest['document'];

const AUTHENTICATE_TYPE: Partial<Record<VerificationKind, string>> = {
  dl_authenticate: 'dl',
  ppt_authenticate: 'ppt',
  idcard_authenticate: 'idcard',
};

/** A calendar date in one of the given layouts (y, M, d in that order, optional separator). */
function isDate(value: string, separators: string[]): boolean {
  const match = /^(\d{4})([/-]?)(\d{2})\2(\d{2})$/.exec(value);
  if (!match || !separators.includes(match[2] ?? '')) return false;
  const [year, month, day] = [Number(match[1]), Number(match[3]), Number(match[4])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

const has = (document: Document, ...fields: (keyof Document)[]) =>
  fields.some((f) => typeof document[f] === 'string' && document[f] !== '');

function required(
  document: Document,
  fields: (keyof Document)[],
  kind: string,
  issues: ValidationIssue[],
): void {
  for (const field of fields) {
    if (!has(document, field))
      issues.push({ path: `/document/${field}`, message: `is required for ${kind}` });
  }
}

const RULES: Partial<
  Record<VerificationKind, (document: Document, issues: ValidationIssue[]) => void>
> = {
  dl_verify: (d, issues) => required(d, ['documentType', 'country'], 'dl_verify', issues),
  face_compare: (d, issues) => {
    const second = has(d, 'image2', 'image2Url');
    const pair = has(d, 'image1', 'image1Url') && second;
    const live = has(d, 'liveId', 'liveIdUrl') && second;
    if (!pair && !live) {
      issues.push({
        path: '/document/image2',
        message:
          'face_compare needs image1/image1Url with image2/image2Url, or liveId/liveIdUrl with image2/image2Url',
      });
    }
    if (d.purpose === 'registration')
      issues.push({
        path: '/document/purpose',
        message: 'must be authentication or doc_enrollment for face_compare',
      });
  },
  ssn_verify: (d, issues) => {
    if (has(d, 'firstName') && !has(d, 'lastName'))
      issues.push({ path: '/document/lastName', message: 'is required when firstName is given' });
    if (has(d, 'dob') && !isDate(d.dob ?? '', ['', '/', '-'])) {
      issues.push({
        path: '/document/dob',
        message: 'must be a date as yyyyMMdd, yyyy/MM/dd or yyyy-MM-dd',
      });
    }
  },
  person_verify: (d, issues) => {
    required(d, ['firstName', 'lastName', 'dob'], 'person_verify', issues);
    if (has(d, 'dob') && !isDate(d.dob ?? '', ['']))
      issues.push({ path: '/document/dob', message: 'must be a date as YYYYMMDD' });
  },
};

/** Every broken rule for the requested kinds, each naming its field. */
export function checkVerifyRules(request: VerifyRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  request.verifications.forEach((kind, i) => {
    if (request.verifications.indexOf(kind) !== i)
      issues.push({ path: `/verifications/${i}`, message: `${kind} is listed twice` });
  });
  // a kind listed twice is one issue above, not every one of its issues twice over
  for (const kind of new Set(request.verifications)) {
    const expectedType = AUTHENTICATE_TYPE[kind];
    if (expectedType && request.document.type.toLowerCase() !== expectedType) {
      issues.push({
        path: '/document/type',
        message: `must be ${expectedType} (any case) for ${kind}`,
      });
    }
    RULES[kind]?.(request.document, issues);
  }
  return issues;
}
