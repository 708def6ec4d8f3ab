// The oidc-provider configuration of one community's issuer.
import { createHmac } from 'node:crypto';
import type { ClientAuthMethod, Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import type { Knex } from '@idv/db';
import { assertRequestObject, requireScope } from './authorizationRules.ts';
import { ACR_VALUES } from './domain/authMethods.ts';
import { signInPolicy, type SignInPolicyDeps } from './login/signInPolicy.ts';
import type { AccountStore } from './store/accountStore.ts';
import type { OperatorStore } from './store/operatorStore.ts';
import type { ClientStore } from './store/clientStore.ts';
import { ModelBatches } from './store/modelBatches.ts';
import { ModelStore } from './store/modelStore.ts';

export const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  ClientCredentials: 600,
  IdToken: 3600,
  RefreshToken: 14 * 24 * 3600,
  Interaction: 600,
  Session: 24 * 3600,
  Grant: 14 * 24 * 3600,
} as const;

/** `auth_time` stamped on an operator's access token (extraTokenClaims), for its userinfo. */
function authTimeOf(token: unknown): { auth_time?: number } {
  const extra = (token as { extra?: { auth_time?: unknown } } | undefined)?.extra;
  return typeof extra?.auth_time === 'number' ? { auth_time: extra.auth_time } : {};
}

/** The longest a token signed with a key can stay valid: how long a retired key is kept. */
export const LONGEST_SIGNED_TTL = Math.max(TTL.IdToken, TTL.AccessToken);

export const ROUTES = {
  authorization: '/v1/authorize',
  token: '/v1/token',
  introspection: '/v1/introspect',
  jwks: '/v1/jwks',
  revocation: '/v1/revoke',
  userinfo: '/v1/userinfo',
  end_session: '/v1/logout',
} as const;

/**
 * Clients are registered for HTTP Basic (the spec: required at token and introspect); left to
 * its defaults oidc-provider would also read a secret from the body (client_secret_post).
 */
const CLIENT_AUTH_METHODS: ClientAuthMethod[] = ['client_secret_basic'];

/**
 * Discovery members oidc-provider leaves out, with what the issuer really does: introspection
 * authenticates clients as the token endpoint does, no client authenticates with a JWT, and
 * no request_uri can be used (request_uri_parameter_supported: false), registered or not.
 */
const DISCOVERY = {
  require_request_uri_registration: true,
  introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  token_endpoint_auth_signing_alg_values_supported: [],
  introspection_endpoint_auth_signing_alg_values_supported: [],
};

export interface CommunityProviderDeps extends SignInPolicyDeps {
  /** OPERATORS_COMMUNITY: its issuer also answers the `operator` scope (roles, communities) */
  operatorsCommunity: string;
  operators: OperatorStore;
  db: Knex;
  masterKey: Buffer;
  clients: ClientStore;
  accounts: AccountStore;
  /** OAUTH_DURABLE_ISSUANCE: new tokens, codes and sessions wait for the WAL flush too */
  durableIssuance?: boolean;
}

export function interactionPath(communityName: string, uid: string): string {
  return `/community/${encodeURIComponent(communityName)}/v1/interaction/${uid}`;
}

export function providerConfiguration(
  deps: CommunityProviderDeps,
  community: { id: string; name: string },
  keys: JWK[],
): Configuration {
  // cookie names carry the community: session cookies live on path / and would collide
  const suffix = community.name.replace(/[^A-Za-z0-9_-]/g, '_');
  const cookieKey = createHmac('sha256', deps.masterKey)
    .update(`oauth-cookies:${community.id}`)
    .digest('base64url');
  const batches = new ModelBatches(deps.db, community.id);
  const operatorIssuer = community.name === deps.operatorsCommunity;
  return {
    adapter: (model: string) =>
      model === 'Client'
        ? deps.clients.adapterFor(community.id)
        : new ModelStore(deps.db, community.id, model, batches, deps.durableIssuance),
    jwks: { keys },
    clientAuthMethods: CLIENT_AUTH_METHODS,
    // clients have a secret and no keys: HS256 is the one request object signature they can make
    enabledJWA: { requestObjectSigningAlgValues: ['HS256'] },
    discovery: DISCOVERY,
    // the spec makes redirect_uri required: never filled in from a client's only registered one
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: {
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    cookies: {
      keys: [cookieKey],
      names: {
        session: `_session_${suffix}`,
        interaction: `_interaction_${suffix}`,
        resume: `_interaction_resume_${suffix}`,
      },
    },
    routes: ROUTES,
    // errors shown to a browser (no redirect_uri to send them to) in the platform's error body
    renderError: (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = {
        statusCode: ctx.status,
        error: out.error,
        message: out.error_description ?? out.error,
      };
    },
    responseTypes: ['code'],
    acrValues: ACR_VALUES,
    // the console (a confidential client keeping the tokens) reads an operator's roles from the
    // ID token; other issuers keep scope claims to userinfo, as OpenID Connect has them
    ...(operatorIssuer ? { conformIdTokenClaims: false } : {}),
    scopes: operatorIssuer
      ? ['openid', 'offline_access', 'profile', 'operator']
      : ['openid', 'offline_access', 'profile'],
    // the ID token says how the person signed in: amr (RFC 8176), acr and auth_time
    claims: {
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      profile: ['name', 'preferred_username'],
      // the console's operators: their roles and the communities they act on (empty: all)
      ...(operatorIssuer ? { operator: ['roles', 'communities'] } : {}),
    },
    // scope is declared here for its validator only: oidc-provider runs these after the
    // request object is merged in and the redirect_uri is checked
    extraParams: { eam_ref: null, scope: requireScope },
    features: {
      devInteractions: { enabled: false },
      // the `request` parameter (RFC 9101): a signed JWT holding the authorization parameters
      requestObjects: { enabled: true, assertJwtClaimsAndHeader: assertRequestObject },
      // client auth is already required; any client of the community may introspect, since
      // resource servers check tokens issued to others, but only a token's own client revokes it
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    pkce: { required: () => false },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // every refresh spends the refresh token and answers a new one; presenting a spent one
    // again revokes the grant (oidc-provider's refresh_token grant; races: ModelStore.consume)
    rotateRefreshToken: true,
    interactions: {
      url: (_ctx, interaction) => interactionPath(community.name, interaction.uid),
      policy: signInPolicy(deps, community),
    },
    // an operator's access token remembers when its sign-in happened (from the code or the
    // refresh token it was issued for), so a gateway can ask for a recent one (erasure)
    ...(operatorIssuer
      ? {
          extraTokenClaims: (ctx: KoaContextWithOIDC, token: { kind: string }) => {
            if (token.kind !== 'AccessToken') return undefined;
            const { AuthorizationCode: code, RefreshToken: refresh } = ctx.oidc.entities;
            const authTime = code?.authTime ?? refresh?.authTime;
            return authTime === undefined ? undefined : { auth_time: authTime };
          },
        }
      : {}),
    // an account that does not exist (any more) has no tokens: code, refresh and userinfo fail
    findAccount: async (_ctx, sub, token) => {
      const account = await deps.accounts.find(community.id, sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const grant = operatorIssuer ? await deps.operators.find(community.id, sub) : undefined;
          return {
            sub,
            preferred_username: account.username,
            name: account.displayName ?? account.username,
            ...(operatorIssuer
              ? { roles: grant?.roles ?? [], communities: grant?.communities ?? [] }
              : {}),
            // userinfo of an operator's token: when the sign-in it came from happened
            ...(operatorIssuer ? authTimeOf(token) : {}),
          };
        },
      };
    },
    ttl: { ...TTL },
  };
}
