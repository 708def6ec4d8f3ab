// The normalised result a connector returns for each verification kind, whatever the provider.
import { Type, type Static } from '@sinclair/typebox';
import type { VerificationKind } from './kinds.ts';

/** How a result with status 'pending' (the provider has not decided yet) is followed up. */
export const FollowUp = Type.Object(
  {
    reference: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "the provider's reference",
    }),
    how: Type.Union([Type.Literal('poll'), Type.Literal('callback')], {
      description:
        'callback: the provider calls the platform back (the worker still polls, rarely)',
    }),
    deadline: Type.Integer({
      minimum: 0,
      description: 'epoch ms after which the kind settles inconclusive (follow_up_deadline_passed)',
    }),
  },
  { additionalProperties: false },
);
export type FollowUp = Static<typeof FollowUp>;

const base = {
  verified: Type.Boolean({ description: 'the provider confirmed the check' }),
  status: Type.Union([
    Type.Literal('verified'),
    Type.Literal('not_verified'),
    Type.Literal('inconclusive'),
    Type.Literal('pending'),
  ]),
  followUp: Type.Optional(FollowUp),
  score: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'confidence 0..100 where the provider gives one',
    }),
  ),
  reasons: Type.Array(Type.String(), {
    description: 'machine-readable reasons for a negative or inconclusive answer',
  }),
};

/** Fields read from a document; dates as YYYY-MM-DD. Present only when the kind extracts them. */
export const ExtractedFields = Type.Object(
  {
    firstName: Type.Optional(Type.String()),
    middleName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    dob: Type.Optional(Type.String()),
    documentNumber: Type.Optional(Type.String()),
    expiry: Type.Optional(Type.String()),
    issueDate: Type.Optional(Type.String()),
    issuer: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
    sex: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ExtractedFields = Static<typeof ExtractedFields>;

export const DocumentChecks = Type.Record(Type.String(), Type.Boolean(), {
  description: 'named checks and whether each passed, e.g. notExpired, checkDigits, issuerKnown',
});

export const FaceResult = Type.Object({
  ...base,
  threshold: Type.Optional(
    Type.Number({ description: 'score at or above which faces match (0..100)' }),
  ),
  advisory: Type.Optional(
    Type.Boolean({
      description:
        "true: an offline model's opinion (basic_face), for a reviewer or a policy to weigh, not a provider's identity check",
    }),
  ),
});

export const LivenessResult = Type.Object({
  ...base,
  calibration: Type.Optional(
    Type.Union([Type.Literal('SOFT'), Type.Literal('REGULAR'), Type.Literal('HARDENED')]),
  ),
});

export const DocumentResult = Type.Object({
  ...base,
  extracted: Type.Optional(ExtractedFields),
  checks: Type.Optional(DocumentChecks),
});

export const RecordCheckResult = Type.Object({
  ...base,
  fieldMatches: Type.Optional(
    Type.Record(Type.String(), Type.Boolean(), { description: 'per submitted field' }),
  ),
  fieldScores: Type.Optional(
    Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 100 }), {
      description: 'per compared field, 0..100',
    }),
  ),
});

/** The result shape of each verification kind. */
export const RESULT_BY_KIND: Record<
  VerificationKind,
  typeof FaceResult | typeof LivenessResult | typeof DocumentResult | typeof RecordCheckResult
> = {
  face_compare: FaceResult,
  face_liveness: LivenessResult,
  document_liveness: LivenessResult,
  dl_authenticate: DocumentResult,
  ppt_authenticate: DocumentResult,
  idcard_authenticate: DocumentResult,
  dl_verify: RecordCheckResult,
  ssn_verify: RecordCheckResult,
  person_verify: RecordCheckResult,
};

export const NormalisedResult = Type.Union([
  FaceResult,
  LivenessResult,
  DocumentResult,
  RecordCheckResult,
]);
export type NormalisedResult = Static<typeof NormalisedResult>;
