// The scopes granted: those of the request this issuer supports, which must include openid.
import { param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

const SUPPORTED_SCOPES = new Set(['openid', 'offline_access', 'profile']);

/** The granted scope, space-separated; requireParameters has made sure a scope is given. */
export function checkScope(params: AuthorizeParams): string {
  const scopes = (param(params, 'scope') ?? '').split(' ').filter((s) => SUPPORTED_SCOPES.has(s));
  if (!scopes.includes('openid')) {
    throw new RefusedAtRedirect('invalid_scope', 'scope must include openid');
  }
  return scopes.join(' ');
}
