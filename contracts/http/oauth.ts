// Bodies of the oauth service (spec 2.1-2.6): token set, introspection, discovery, keys, EAM.
// oidc-provider writes these; the schemas document them and let callers and tests validate.
import { Type, type Static } from '@sinclair/typebox';

const open = { additionalProperties: true };

export const OauthTokenSet = Type.Object(
  {
    access_token: Type.String(),
    id_token: Type.Optional(Type.String()),
    refresh_token: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    token_type: Type.String(),
    expires_in: Type.Number(),
  },
  { ...open, $id: 'http/oauthTokenSet' },
);
export type OauthTokenSet = Static<typeof OauthTokenSet>;

/** The spec types every member as string; the service answers RFC 7662 types (active boolean). */
export const OauthIntrospection = Type.Object(
  {
    active: Type.Boolean(),
    sub: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Number()),
    iat: Type.Optional(Type.Number()),
    iss: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.String()),
  },
  { ...open, $id: 'http/oauthIntrospection' },
);
export type OauthIntrospection = Static<typeof OauthIntrospection>;

export const OauthDiscovery = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    introspection_endpoint: Type.String(),
    jwks_uri: Type.String(),
    userinfo_endpoint: Type.String(),
    end_session_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
  },
  { ...open, $id: 'http/oauthDiscovery' },
);
export type OauthDiscovery = Static<typeof OauthDiscovery>;

/** Public members only (DESIGN 3): no `d`, although the spec's list names it. */
export const OauthJwks = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          kty: Type.Literal('EC'),
          crv: Type.Literal('P-256'),
          x: Type.String(),
          y: Type.String(),
          kid: Type.String(),
          alg: Type.Literal('ES256'),
          use: Type.Literal('sig'),
          key_ops: Type.Optional(Type.Array(Type.String())),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'http/oauthJwks' },
);
export type OauthJwks = Static<typeof OauthJwks>;

export const OauthEamContext = Type.Object(
  { oid: Type.String(), tid: Type.String() },
  { additionalProperties: false, $id: 'http/oauthEamContext' },
);
export type OauthEamContext = Static<typeof OauthEamContext>;
