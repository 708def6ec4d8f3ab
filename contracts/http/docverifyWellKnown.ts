// GET /.well-known of the document verification service (spec 2.1).
import { Type, type Static } from '@sinclair/typebox';

const Option = Type.Object({
  label: Type.String(),
  description: Type.String(),
  value: Type.String(),
});
const Labelled = Type.Object({ label: Type.String(), value: Type.String() });
const MinMatchScore = Type.Object({
  min: Type.Literal(70),
  max: Type.Literal(100),
  default: Type.Literal(85),
});
const CriteriaOption = Type.Object({
  value: Type.Union([Type.Literal('eq'), Type.Literal('fuzzyMatch')]),
  ignoreMiddleNames: Type.Optional(Type.Boolean()),
  minMatchScore: Type.Optional(MinMatchScore),
});

export const DocverifyWellKnown = Type.Object(
  {
    journeyTypes: Type.Array(Option),
    documentsList: Type.Array(
      Type.Object({ country: Type.String(), region: Type.String(), documentType: Type.String() }),
    ),
    dataRetention: Type.Array(
      Type.Object({
        label: Type.String(),
        value: Type.Object({
          pii_retention_off: Type.Boolean(),
          pii_retention_ttl: Type.Optional(Type.Number()),
        }),
      }),
    ),
    dataComparisonAttributes: Type.Array(
      Type.Object({
        label: Type.String(),
        module: Type.String(),
        criteriaOptions: Type.Array(CriteriaOption),
      }),
    ),
    usecase: Type.Object({
      contexts: Type.Array(Labelled),
      documentVerificationPolicy: Type.Array(Option),
    }),
    retryCount: Type.Object({ maxValue: Type.Literal(4), defaultValue: Type.Literal(2) }),
    selfieRetryCount: Type.Object({ maxValue: Type.Literal(10), defaultValue: Type.Literal(3) }),
    expireSessionInMin: Type.Literal(10080),
    abandonSessionInMin: Type.Literal(60),
    livenessLevels: Type.Array(Option),
    faceMatchingScore: Type.Literal(50),
    selfieCaptureModes: Type.Array(Option),
  },
  { $id: 'http/docverifyWellKnown', additionalProperties: false },
);
export type DocverifyWellKnown = Static<typeof DocverifyWellKnown>;
