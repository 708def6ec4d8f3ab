// The reason codes a review decision carries: which decisions each fits, what it means for
// operators, what the person is told (en, es), and for a resubmission what is captured again.
// GET /review/reasons lists them; a decision with an unknown code, or one that does not fit it, is
// refused (400).
import type { ResubmissionCapture, ReviewDecision } from '@idv/contracts';
import { InputError } from '@idv/errors';

export interface ReviewReason {
  code: string;
  decisions: ReviewDecision[];
  internal: string;
  person: { en: string; es: string };
  captures?: ResubmissionCapture[];
  /** the decision must say why in its note */
  needsNote: boolean;
}

const reason = (
  code: string,
  decisions: ReviewDecision[],
  internal: string,
  person: { en: string; es: string },
  more: { captures?: ResubmissionCapture[]; needsNote?: boolean } = {},
): ReviewReason => ({
  code,
  decisions,
  internal,
  person,
  ...(more.captures ? { captures: more.captures } : {}),
  needsNote: more.needsNote ?? false,
});

export const REVIEW_REASONS: readonly ReviewReason[] = [
  reason(
    'identity_confirmed',
    ['approve'],
    'document, selfie and data checked by a reviewer: they belong together',
    {
      en: 'Your identity has been verified.',
      es: 'Su identidad ha sido verificada.',
    },
  ),
  reason(
    'automated_check_overruled',
    ['approve'],
    'an automated check failed where the reviewer sees no problem (glare, a provider error)',
    {
      en: 'Your identity has been verified.',
      es: 'Su identidad ha sido verificada.',
    },
  ),
  reason('face_mismatch', ['decline'], 'the selfie is not the person of the document', {
    en: 'We could not match your photo with your document.',
    es: 'No pudimos relacionar su foto con su documento.',
  }),
  reason(
    'document_suspected_forged',
    ['decline'],
    'the document shows signs of tampering or forgery',
    {
      en: 'We could not accept the document you provided.',
      es: 'No pudimos aceptar el documento que proporcionó.',
    },
  ),
  reason('document_expired', ['decline'], 'the document is past its expiry date', {
    en: 'The document you provided has expired.',
    es: 'El documento que proporcionó ha caducado.',
  }),
  reason(
    'data_mismatch',
    ['decline'],
    'the data read from the document contradicts what the caller sent',
    {
      en: 'The details on your document do not match the details we were given.',
      es: 'Los datos de su documento no coinciden con los que recibimos.',
    },
  ),
  reason(
    'document_unreadable',
    ['resubmit'],
    'the document cannot be read: blurred, cut off, glare',
    {
      en: 'Please take new photos of both sides of your document, sharp and complete.',
      es: 'Tome nuevas fotos de ambas caras de su documento, nítidas y completas.',
    },
    { captures: ['document_front', 'document_back'] },
  ),
  reason(
    'document_front_unreadable',
    ['resubmit'],
    'the front (or the passport page) cannot be read',
    {
      en: 'Please take a new photo of the front of your document.',
      es: 'Tome una nueva foto del anverso de su documento.',
    },
    { captures: ['document_front'] },
  ),
  reason(
    'barcode_unreadable',
    ['resubmit'],
    'the barcode on the back cannot be read',
    {
      en: 'Please take a new photo of the back of your document, with the barcode sharp.',
      es: 'Tome una nueva foto del reverso de su documento, con el código de barras nítido.',
    },
    { captures: ['document_back'] },
  ),
  reason(
    'selfie_unusable',
    ['resubmit'],
    'the selfie is dark, blurred, covered or not a live face',
    {
      en: 'Please take a new selfie in good light, your face uncovered.',
      es: 'Tómese un nuevo selfie con buena luz y el rostro descubierto.',
    },
    { captures: ['selfie'] },
  ),
  reason(
    'wrong_document',
    ['resubmit'],
    'another document than the one asked for was captured',
    {
      en: 'Please capture the document you were asked for, both sides, and a new selfie.',
      es: 'Capture el documento que se le pidió, ambas caras, y un nuevo selfie.',
    },
    { captures: ['document_front', 'document_back', 'selfie'] },
  ),
  reason(
    'other',
    ['approve', 'decline'],
    'anything else: the note says what',
    {
      en: 'Your verification has been reviewed.',
      es: 'Su verificación ha sido revisada.',
    },
    { needsNote: true },
  ),
];

/** The reason `code` if it fits `decision` (and has the note it needs); else an InputError. */
export function reasonFor(code: string, decision: ReviewDecision, note?: string): ReviewReason {
  const found = REVIEW_REASONS.find((r) => r.code === code);
  if (!found)
    throw new InputError(`reasonCode ${code} is not a review reason (GET /review/reasons)`, [
      { path: '/reasonCode', message: 'unknown reason code' },
    ]);
  if (!found.decisions.includes(decision))
    throw new InputError(`reasonCode ${code} does not fit the decision ${decision}`, [
      { path: '/reasonCode', message: `fits ${found.decisions.join(', ')} only` },
    ]);
  if (found.needsNote && !note)
    throw new InputError(`reasonCode ${code} needs a note saying why`, [
      { path: '/note', message: `required with ${code}` },
    ]);
  return found;
}
