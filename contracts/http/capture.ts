// The capture page's API (/capture-api/*): what the page of a session reads and sends. Its only
// credential is the session's page token, sent as `Authorization: Bearer <token>`.
import { Type, type Static } from '@sinclair/typebox';
import { Branding } from './docverifyConfig.ts';

/**
 * A config's branding as the page gets it: the logo as an address of its own (cached by the
 * browser), not the data URL, which every read of the session would otherwise carry again.
 */
const PageBranding = Type.Composite([
  Type.Omit(Branding, ['logo']),
  Type.Object({
    logoUrl: Type.Optional(
      Type.String({ description: '/capture/{token}/logo?v={version}: the PNG or WebP itself' }),
    ),
  }),
]);
import { SESSION_DOCUMENT_TYPES, SESSION_STATES } from './sessions.ts';

export const CAPTURE_SIDES = ['front', 'back', 'passport', 'selfie'] as const;
export type CaptureSide = (typeof CAPTURE_SIDES)[number];

/**
 * Why a captured image is not good enough; the page shows the matching retake advice.
 * `check_unavailable` is not the image's fault: its check did not run (out of time, or the
 * gateway's image checks busy: another photo of the same session being checked, the community's
 * or the gateway's share full). The image is not kept and no retake is spent: send it again.
 */
export const CAPTURE_PROBLEMS = [
  'not_an_image',
  'too_small',
  'blurred',
  'too_dark',
  'too_bright',
  'no_face',
  'multiple_faces',
  'face_cut_off',
  'face_too_small',
  'barcode_unreadable',
  'mrz_unreadable',
  'check_unavailable',
] as const;
export type CaptureProblem = (typeof CAPTURE_PROBLEMS)[number];

const DocumentType = Type.Union(SESSION_DOCUMENT_TYPES.map((t) => Type.Literal(t)));
const Side = Type.Union(CAPTURE_SIDES.map((s) => Type.Literal(s)));
const perSide = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Boolean>>(
  schema: T,
) => Type.Partial(Type.Record(Side, schema));

/** GET /capture-api/session: everything the page needs to lead the person. */
export const CaptureSession = Type.Object(
  {
    state: Type.Union(SESSION_STATES.map((s) => Type.Literal(s))),
    journeyType: Type.Union([
      Type.Literal('KYC_WITH_FACE_COMPARISON'),
      Type.Literal('DOCUMENT_VERIFICATION_ONLY'),
    ]),
    documentType: Type.Union([DocumentType, Type.Null()], {
      description: 'null: the person chooses one of documentTypes',
    }),
    documentTypes: Type.Array(DocumentType, { description: 'what this session accepts' }),
    branding: Type.Union([PageBranding, Type.Null()], {
      description: "the business the page speaks for (its config's settings.branding), or none",
    }),
    documentFixed: Type.Boolean({
      description: 'the caller fixed the document type: the person cannot choose another',
    }),
    /** the sides the journey needs for the chosen document type, in capture order */
    sides: Type.Array(Side),
    settings: Type.Object({
      selfieCaptureMode: Type.Union([
        Type.Literal('auto'),
        Type.Literal('manualWithFaceDetection'),
      ]),
      reviewScreenFront: Type.Boolean(),
      reviewScreenBack: Type.Boolean(),
      retryCount: Type.Integer({ description: 'retakes allowed per document side' }),
      selfieRetryCount: Type.Integer({ description: 'retakes allowed for the selfie' }),
      maxImageBytes: Type.Integer(),
    }),
    attempts: perSide(Type.Integer({ minimum: 0 })),
    accepted: perSide(Type.Boolean()),
    consent: Type.Object({
      given: Type.Boolean(),
      textVersion: Type.String({ description: 'the consent text the page must show' }),
    }),
    locale: Type.Union([Type.String(), Type.Null()], {
      description: "sessionRequest.locale; null: the page follows the browser's languages",
    }),
    redirectUrl: Type.Union([Type.String(), Type.Null()]),
    /** the page's own URL, for the desktop-to-phone QR code */
    handoffUrl: Type.String(),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'http/captureSession' },
);
export type CaptureSession = Static<typeof CaptureSession>;

/**
 * The version of the biometric consent text the page shows now. GET /capture-api/session names it
 * (consent.textVersion); POST /capture-api/consent must echo it, and the server records it with
 * the time. A new text gets a new version here and in the page's strings.
 */
export const CONSENT_TEXT_VERSION = 'biometric-consent-v1';

/** POST /capture-api/consent */
export const CaptureConsent = Type.Object(
  { accepted: Type.Literal(true), textVersion: Type.String({ minLength: 1, maxLength: 50 }) },
  { $id: 'http/captureConsent', additionalProperties: false },
);

/** POST /capture-api/document-type: only while the session has none fixed. */
export const CaptureDocumentType = Type.Object(
  { documentType: DocumentType },
  { $id: 'http/captureDocumentType', additionalProperties: false },
);

/** PUT /capture-api/images/{side} answers this (the body is the raw image). */
export const CaptureImageVerdict = Type.Object(
  {
    side: Side,
    accepted: Type.Boolean(),
    problems: Type.Array(
      Type.Object({
        code: Type.Union(CAPTURE_PROBLEMS.map((p) => Type.Literal(p))),
        message: Type.String(),
      }),
    ),
    attemptsLeft: Type.Integer({ minimum: 0 }),
  },
  { $id: 'http/captureImageVerdict' },
);
export type CaptureImageVerdict = Static<typeof CaptureImageVerdict>;

/** GET /capture-api/status and the answer of POST /capture-api/submit. */
export const CaptureStatus = Type.Object(
  {
    state: Type.Union(SESSION_STATES.map((s) => Type.Literal(s))),
    redirectUrl: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'http/captureStatus' },
);

/** Media types the page may send; anything else is 415. */
export const CAPTURE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
