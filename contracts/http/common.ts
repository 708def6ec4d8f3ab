// Bodies of the endpoints every HTTP service serves (health, keys, directory, helper, environment).
import { Type, type Static } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Unknown({ description: 'validation issues: [{path, message}]' })),
  },
  { $id: 'http/errorBody' },
);

export const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    publicKey: Type.String({ description: 'same as GET /publickeys' }),
    code: Type.String({ description: "'200' when every dependency is up, '503' otherwise" }),
    version: Type.String({ description: '<git-tag>.<commit-id>.<dob> or <commit-id>.<dob>' }),
    checks: Type.Record(Type.String(), Type.Union([Type.Literal('up'), Type.Literal('down')])),
  },
  { $id: 'http/health' },
);
export type Health = Static<typeof Health>;

const acceptedUntil = Type.String({
  format: 'date-time',
  description: 'when credentials made with it stop being accepted',
});

/** GET /publickeys: the spec's {publicKey} (the current key) plus the keys resets replaced. */
export const PublicKeyObject = Type.Object(
  {
    publicKey: Type.String({ description: 'the current service public key: use this one' }),
    previousKeys: Type.Array(Type.Object({ publicKey: Type.String(), acceptedUntil }), {
      description:
        'keys replaced by a reset and still accepted (their grace), newest first; verify signatures made before the reset with them',
    }),
  },
  { $id: 'http/publicKey' },
);
export type PublicKeyObject = Static<typeof PublicKeyObject>;

/** GET /.well-known of the webhooks service: the same in snake case. */
export const WellKnownPublicKey = Type.Object(
  {
    public_key: Type.String({ description: 'same as the /publickeys publicKey' }),
    previous_public_keys: Type.Array(
      Type.Object({ public_key: Type.String(), accepted_until: acceptedUntil }),
      { description: 'same as the /publickeys previousKeys' },
    ),
  },
  { $id: 'http/wellKnownPublicKey' },
);

/** POST /servicekeys/end-grace and `admin servicekey end-grace`: the previous keys it ended. */
export const ServiceKeyGraceEnded = Type.Object(
  {
    service: Type.String({ description: 'oauth, docverify or webhooks' }),
    publicKey: Type.String({
      description: 'the current service public key, the only one accepted now',
    }),
    ended: Type.Array(
      Type.Object({
        publicKey: Type.String(),
        acceptedUntil: Type.String({
          format: 'date-time',
          description: 'when its grace would have ended',
        }),
      }),
      { description: 'previous keys refused from now on, newest first (empty: none was accepted)' },
    ),
  },
  { $id: 'http/serviceKeyGraceEnded', additionalProperties: false },
);
export type ServiceKeyGraceEnded = Static<typeof ServiceKeyGraceEnded>;

export const ServiceKeyBody = Type.Object(
  { tag: Type.String(), keyId: Type.String(), keySecret: Type.String(), type: Type.String() },
  { $id: 'http/serviceKey' },
);

export const ServiceDirectory = Type.Record(Type.String(), Type.String(), {
  $id: 'http/serviceDirectory',
});

export const EcdsaHelperMethod = Type.Union([Type.Literal('encrypt'), Type.Literal('decrypt')]);

/** oauth spec: {dataStr, publicKey, privateKey}, all required. */
export const EcdsaHelperOauthBody = Type.Object(
  {
    dataStr: Type.String({ maxLength: 1_000_000 }),
    publicKey: Type.String({ minLength: 1, maxLength: 200 }),
    privateKey: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { $id: 'http/ecdsaHelperOauthBody' },
);
export type EcdsaHelperOauthBody = Static<typeof EcdsaHelperOauthBody>;

/** webhooks spec: {data optional, publicKey, privateKey}. */
export const EcdsaHelperDataBody = Type.Object(
  {
    data: Type.Optional(Type.String({ maxLength: 1_000_000 })),
    publicKey: Type.String({ minLength: 1, maxLength: 200 }),
    privateKey: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { $id: 'http/ecdsaHelperDataBody' },
);
export type EcdsaHelperDataBody = Static<typeof EcdsaHelperDataBody>;

export const Environment = Type.Object(
  {
    service: Type.String(),
    allowed_time_span: Type.Integer({ description: 'seconds a requestid ts may differ from now' }),
    curve: Type.Literal('secp256k1'),
    cipher: Type.Literal('aes-256-gcm'),
    versions: Type.Object({ api: Type.String(), build: Type.String() }),
  },
  { $id: 'http/environment' },
);
export type Environment = Static<typeof Environment>;
