// Verification configs (spec 2.4): which verifiers serve each kind, in order, plus the
// verification settings the well-known lists offer.
import { Type, type Static, type TArray, type TOptional } from '@sinclair/typebox';
import { TAG_PATTERN } from './docverifyVerifier.ts';
import { ReviewSettings } from './review.ts';

/** The twelve arrays of spec 2.4; the first nine are also kinds of POST /verify. */
export const CONFIG_ARRAYS = [
  'face_liveness',
  'face_compare',
  'dl_verify',
  'ssn_verify',
  'person_verify',
  'dl_authenticate',
  'ppt_authenticate',
  'document_liveness',
  'idcard_authenticate',
  'person_search',
  'id_capture',
  'face_rekognition',
] as const;
export type ConfigArray = (typeof CONFIG_ARRAYS)[number];

export const ConfigItem = Type.Object(
  {
    verifier: Type.String({
      pattern: TAG_PATTERN,
      description: 'tag of a verifier of the community',
    }),
    skip: Type.Boolean({ default: false, description: 'left out when verifying' }),
    debug: Type.Boolean({ default: false }),
    returnRawData: Type.Boolean({
      default: false,
      description: "include the provider's raw answer",
    }),
  },
  { additionalProperties: false },
);
export type ConfigItem = Static<typeof ConfigItem>;

/**
 * A criterion of a data comparison (spec 2.1). minMatchScore belongs to fuzzyMatch (default 85);
 * given with eq it is dropped, never stored, so a criterion switched from fuzzyMatch to eq
 * round-trips. The dob check offers only eq and knows no middle names: fuzzyMatch or
 * ignoreMiddleNames there is 400 naming the member.
 */
const Criteria = Type.Object(
  {
    value: Type.Union([Type.Literal('eq'), Type.Literal('fuzzyMatch')], {
      description: 'dob check: eq only',
    }),
    ignoreMiddleNames: Type.Optional(Type.Boolean({ description: 'name checks only' })),
    minMatchScore: Type.Optional(
      Type.Integer({
        minimum: 70,
        maximum: 100,
        description: 'fuzzyMatch only, default 85; dropped (not stored) with eq',
      }),
    ),
  },
  {
    additionalProperties: false,
    if: { properties: { value: { const: 'fuzzyMatch' } } },
    then: { properties: { minMatchScore: { default: 85 } } },
  },
);

/** An https address a person may open from the capture page (privacy policy, help). */
const PageLink = Type.String({ pattern: '^https://[^\\s<>"]+$', maxLength: 2000 });

/** The largest logo, decoded: its data URL is about a third longer. */
export const BRANDING_LOGO_BYTES = 64 * 1024;
/** The largest side of a logo in pixels (a browser decodes it). */
export const BRANDING_LOGO_SIDE = 1024;

/** The business the capture page speaks for: its name and logo on every screen, its links. */
export const Branding = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: "the business's name" }),
    primaryColor: Type.Optional(
      Type.String({
        pattern: '^#[0-9a-fA-F]{6}$',
        description:
          'buttons and links, used when white text on it is readable (contrast 4.5:1 or more), else the default blue',
      }),
    ),
    logo: Type.Optional(
      Type.String({
        pattern: '^data:image/(png|webp);base64,[A-Za-z0-9+/]+={0,2}$',
        maxLength: 22 + Math.ceil(BRANDING_LOGO_BYTES / 3) * 4,
        description: `a PNG or WebP data URL of at most ${BRANDING_LOGO_BYTES / 1024} kB and ${BRANDING_LOGO_SIDE} px a side`,
      }),
    ),
    privacyPolicyUrl: Type.Optional(PageLink),
    supportUrl: Type.Optional(PageLink),
  },
  { additionalProperties: false },
);
export type Branding = Static<typeof Branding>;

export const VerificationSettings = Type.Object(
  {
    journeyType: Type.Optional(
      Type.Union([
        Type.Literal('KYC_WITH_FACE_COMPARISON'),
        Type.Literal('DOCUMENT_VERIFICATION_ONLY'),
      ]),
    ),
    context: Type.Optional(Type.Union([Type.Literal('REMOTE'), Type.Literal('IN_PERSON')])),
    dataComparisonAttributes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            module: Type.Union([
              Type.Literal('firstname check'),
              Type.Literal('lastname check'),
              Type.Literal('dob check'),
            ]),
            criteria: Criteria,
          },
          { additionalProperties: false },
        ),
        {
          description:
            'compare what a document yields with what the caller sent; dob check: eq only',
        },
      ),
    ),
    dataRetention: Type.Optional(
      Type.Object(
        {
          pii_retention_off: Type.Boolean({ description: 'true: nothing with PII is stored' }),
          pii_retention_ttl: Type.Optional(
            Type.Integer({
              minimum: -1,
              description: '-1: until the result is retrieved once; >0: seconds',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    documentVerificationPolicy: Type.Optional(
      Type.Union(['PERMISSIVE', 'STANDARD', 'STRICT', 'VERY_STRICT'].map((v) => Type.Literal(v))),
    ),
    livenessLevel: Type.Optional(
      Type.Union(['SOFT', 'REGULAR', 'HARDENED'].map((v) => Type.Literal(v))),
    ),
    selfieCaptureMode: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('manualWithFaceDetection')]),
    ),
    faceMatchingScore: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 50 })),
    retryCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, default: 2 })),
    selfieRetryCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, default: 3 })),
    review: Type.Optional(ReviewSettings),
    /** the capture page's branding: name, logo, colour, privacy policy and help links */
    branding: Type.Optional(Branding),
  },
  { additionalProperties: false },
);
export type VerificationSettings = Static<typeof VerificationSettings>;

const arrays = Object.fromEntries(
  CONFIG_ARRAYS.map((name) => [name, Type.Optional(Type.Array(ConfigItem, { maxItems: 20 }))]),
) as unknown as Record<ConfigArray, TOptional<TArray<typeof ConfigItem>>>;

export const VerificationConfigCreate = Type.Object(
  {
    tenantId: Type.String({ minLength: 1 }),
    tag: Type.String({ pattern: TAG_PATTERN }),
    name: Type.String({ minLength: 1, maxLength: 200, default: 'no-name' }),
    ...arrays,
    settings: Type.Optional(VerificationSettings),
    /** the same as settings.review (either, or both alike) */
    review: Type.Optional(ReviewSettings),
  },
  { $id: 'http/verificationConfigCreate', additionalProperties: false },
);

export const VerificationConfigPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...arrays,
    settings: Type.Optional(VerificationSettings),
    /** replaces settings.review alone (the rest of the settings stays) */
    review: Type.Optional(ReviewSettings),
  },
  {
    $id: 'http/verificationConfigPatch',
    additionalProperties: false,
    description: 'a given array or settings replaces the old one',
  },
);

/** The config body as stored and returned (arrays always present, possibly empty). */
export interface VerificationConfigBody {
  name: string;
  settings: VerificationSettings;
  arrays: Partial<Record<ConfigArray, ConfigItem[]>>;
}
