// POST /verify (spec 2.2): the encrypted body, the request it carries, and the result returned.
import { Type, type Static } from '@sinclair/typebox';
import { VerificationKindSchema } from '../connectors/kinds.ts';
import { NormalisedResult } from '../connectors/results.ts';
import { Resubmission } from './review.ts';

export const VerifyBody = Type.Object(
  {
    data: Type.String({
      minLength: 1,
      description: 'the verification request, encrypted with the shared key',
    }),
  },
  { $id: 'http/verifyBody', additionalProperties: false },
);

export const EncryptedAnswer = Type.Object(
  {
    data: Type.String({ description: 'the result JSON, encrypted with the shared key' }),
    publicKey: Type.String({
      description:
        'the service public key data is encrypted with: the one the caller made its headers with (after a reset, a previous key still in its grace)',
    }),
    currentPublicKey: Type.Optional(
      Type.String({
        description: 'only when publicKey is a previous key: the current key (GET /publickeys)',
      }),
    ),
  },
  { $id: 'http/encryptedAnswer' },
);

const text = (maxLength = 200) => Type.Optional(Type.String({ maxLength }));
const image = Type.Optional(
  Type.String({ maxLength: 15_000_000, pattern: '^[A-Za-z0-9+/=\\s]*$', description: 'base64' }),
);
const url = Type.Optional(
  Type.String({ format: 'uri', maxLength: 4000, description: 'presigned URL' }),
);

/** Every document member of spec 2.2 with its type; which are required depends on the kinds. */
export const VerifyDocument = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.String({ minLength: 1, maxLength: 50 }),
    documentType: text(),
    country: text(),
    category: text(),
    proofedBy: text(),
    firstName: text(),
    lastName: text(),
    middleName: text(),
    familyName: text(),
    suffixName: text(),
    nameSuffix: text(),
    dob: text(20),
    doe: text(20),
    doi: text(20),
    documentId: text(),
    gender: text(20),
    height: text(20),
    eyeColor: text(20),
    street: text(),
    city: text(),
    state: text(),
    zipCode: text(20),
    ssn: text(20),
    phone: text(50),
    email: text(320),
    liveId: image,
    liveIdUrl: url,
    image: image,
    imageUrl: url,
    image1: image,
    image1Url: url,
    image2: image,
    image2Url: url,
    front_image: image,
    back_image: image,
    barcode_image: image,
    front_image_flash: image,
    front_image_url: url,
    back_image_url: url,
    barcode_image_url: url,
    front_image_flash_url: url,
    purpose: Type.Optional(
      Type.Union(['authentication', 'registration', 'doc_enrollment'].map((v) => Type.Literal(v))),
    ),
    metaHeaders: Type.Optional(
      Type.Object(
        {
          operatingSystem: Type.Optional(
            Type.Union(['IOS', 'ANDROID', 'DESKTOP', 'UNKNOWN'].map((v) => Type.Literal(v))),
          ),
          calibration: Type.Optional(
            Type.Union(['SOFT', 'REGULAR', 'HARDENED'].map((v) => Type.Literal(v))),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Document members that are images or links to them (base64 or presigned URL). */
export const DOCUMENT_IMAGE_MEMBERS: readonly string[] = Object.entries(
  VerifyDocument.properties as Record<string, { description?: string }>,
)
  .filter(([, schema]) => schema.description === 'base64' || schema.description === 'presigned URL')
  .map(([name]) => name);

/**
 * The request without its images: what a run parked on a follow-up still needs (the data it
 * compares). The request itself when it carries no image.
 */
export function withoutDocumentImages<T>(request: T): T {
  const document = (request as { document?: Record<string, unknown> }).document;
  if (!document || !Object.keys(document).some((name) => DOCUMENT_IMAGE_MEMBERS.includes(name)))
    return request;
  const kept = Object.fromEntries(
    Object.entries(document).filter(([name]) => !DOCUMENT_IMAGE_MEMBERS.includes(name)),
  );
  return { ...request, document: kept };
}

export const EVENT_INFO_FIELDS = [
  'ipAddress',
  'userAgent',
  'session_id',
  'mobile_session_id',
  'mobile_document_id',
  'wfInstanceId',
  'workflowId',
] as const;

export const VerifyRequest = Type.Object(
  {
    dvcID: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'verification config id or tag',
    }),
    verifications: Type.Array(VerificationKindSchema, {
      minItems: 1,
      description:
        'each kind once (checked after the types: ajv uniqueItems would call members of hostile objects)',
    }),
    document: VerifyDocument,
    event_info: Type.Optional(
      Type.Object(
        Object.fromEntries(
          EVENT_INFO_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 1000 }))]),
        ),
        {
          additionalProperties: false,
        },
      ),
    ),
  },
  { $id: 'http/verifyRequest', additionalProperties: false },
);
export type VerifyRequest = Static<typeof VerifyRequest>;

export const Certification = Type.Object({
  kind: Type.Union(
    [VerificationKindSchema, Type.Literal('data_comparison'), Type.Literal('human_review')],
    {
      description:
        "a requested kind, data_comparison when the config compares document data, or human_review: a reviewer's decision (it decides the result's status)",
    },
  ),
  verified: Type.Boolean(),
  status: Type.String({
    description: 'verified | not_verified | inconclusive | rejected | pending (decided later)',
  }),
  authority: Type.String({ description: 'the connector type that answered' }),
  verifier: Type.String({ description: 'tag of the verifier that answered' }),
  /** the kind's normalised result; a human_review's is a ReviewResult (http/review.ts) */
  result: Type.Optional(NormalisedResult),
  proof: Type.String({
    description: 'ES256K JWS signed with the docverify service key (see /publickeys)',
  }),
  rawData: Type.Optional(
    Type.Unknown({ description: "the provider's raw answer; only with returnRawData" }),
  ),
});

export const VerifyResult = Type.Object(
  {
    verificationId: Type.String(),
    docId: Type.String(),
    docType: Type.String(),
    dvcID: Type.String(),
    status: Type.Union(
      [Type.Literal('verified'), Type.Literal('not_verified'), Type.Literal('pending')],
      {
        description:
          'pending: a certification awaits its provider (status pending); GET /verification/{verificationId} follows it',
      },
    ),
    certifications: Type.Array(Certification),
  },
  { $id: 'http/verifyResult' },
);
export type VerifyResult = Static<typeof VerifyResult>;

/**
 * A verification run's life: asynchronous /verify and every session's processing. `review`: ended,
 * its result held for a human review (callers see it as pending).
 */
export const RUN_STATUSES = ['processing', 'pending', 'review', 'completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses GET /verification/{id} answers: a run in review reads as pending. */
export const VERIFICATION_VIEW_STATUSES = ['processing', 'pending', 'completed', 'failed'] as const;
export const verificationViewStatus = (status: RunStatus) =>
  status === 'review' ? 'pending' : status;

/** 202 of POST /verify with `Prefer: respond-async`, in plain JSON. */
export const VerifyAccepted = Type.Object(
  {
    verificationId: Type.String({ description: 'GET /verification/{verificationId} follows it' }),
    status: Type.Literal('processing'),
  },
  { $id: 'http/verifyAccepted' },
);

/** What GET /verification/{verificationId} answers, encrypted. */
export const VerificationView = Type.Object(
  {
    verificationId: Type.String(),
    status: Type.Union(VERIFICATION_VIEW_STATUSES.map((s) => Type.Literal(s))),
    result: Type.Optional(VerifyResult),
    failure: Type.Optional(Type.String({ description: 'why a failed run produced no result' })),
    /** pending on a reviewer's request: the person captures again at its url */
    resubmission: Type.Optional(Resubmission),
  },
  { $id: 'http/verificationView' },
);
export type VerificationView = Static<typeof VerificationView>;
