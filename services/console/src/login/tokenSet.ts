// What the console keeps of a token response: the tokens, and the operator the ID token names
// (roles and communities from the `operator` scope, username from `profile`). Both claims must be
// there: an empty communities list means every community, so a missing one is refused, never
// read as that.
import { OPERATOR_ROLES, type OperatorRole } from '@idv/auth';
import { Forbidden } from '@idv/http';
import type * as client from 'openid-client';
import type { SessionClaims, SessionTokens } from '../sessions/sessionStore.ts';

const isRole = (value: unknown): value is OperatorRole =>
  OPERATOR_ROLES.includes(value as OperatorRole);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

type OperatorGrant = Pick<SessionClaims, 'roles' | 'communities'>;

/** The roles and communities of an ID token or a userinfo answer; refused (403) without either. */
export function grantOf(claims: Record<string, unknown>): OperatorGrant {
  const roles = strings(claims.roles).filter(isRole);
  if (roles.length === 0) throw new Forbidden('this account holds no operator role');
  const { communities } = claims;
  if (!Array.isArray(communities) || !communities.every((c): c is string => typeof c === 'string'))
    throw new Forbidden(
      "the operators' issuer names no communities for this account (a list is needed; an empty one means every community)",
    );
  return { roles, communities };
}

/** The operator of an ID token; refused (403) without an operator role or a communities list. */
export function claimsOf(idToken: client.IDToken): SessionClaims {
  return {
    sub: idToken.sub,
    username:
      typeof idToken.preferred_username === 'string' ? idToken.preferred_username : idToken.sub,
    ...grantOf(idToken),
    amr: strings(idToken.amr),
    authTime: new Date(
      (typeof idToken.auth_time === 'number' ? idToken.auth_time : idToken.iat) * 1000,
    ),
  };
}

export function tokensOf(
  response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  previousIdToken?: string,
): SessionTokens {
  const idToken = response.id_token ?? previousIdToken;
  if (!idToken) throw new Error('the issuer answered no ID token');
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    idToken,
    accessExpiresAt: new Date(Date.now() + (response.expiresIn() ?? 300) * 1000),
  };
}
