// What an authorization request must carry beyond oidc-provider's own checks, applied after a
// request object is merged in, so the same rules hold for plain, request-object and PAR requests.
import { errors, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * The spec makes scope required; OAuth 2.0 alone would let a request without one go on to the
 * login page. By now the redirect_uri is checked, so the client hears invalid_request there.
 * (oidc-provider has dropped offline_access when the request cannot be granted it.)
 */
export function requireScope(_ctx: KoaContextWithOIDC, scope: string | undefined): void {
  if (!scope) {
    throw new errors.InvalidRequest(
      "missing required parameter 'scope' (or none of its scopes can be granted here)",
    );
  }
}

/**
 * A request object is signed with the client secret (HS256), and oidc-provider checks iss, aud
 * and exp when present; present they must be, so a captured one stops working and cannot be
 * taken to another issuer that shares nothing else with this one.
 */
export function assertRequestObject(
  _ctx: KoaContextWithOIDC,
  claims: Record<string, unknown>,
): void {
  for (const claim of ['exp', 'aud']) {
    if (claims[claim] === undefined) {
      throw new errors.InvalidRequestObject(`Request Object is missing the '${claim}' claim`);
    }
  }
}
