// The parameters the spec requires beside client_id and redirect_uri (checked before them): a
// missing one is invalid_request, as oidc-provider answers on the GET.
import { param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

const REQUIRED = ['response_type', 'scope'];

export function requireParameters(params: AuthorizeParams): void {
  const missing = REQUIRED.find((name) => !param(params, name));
  if (missing) {
    throw new RefusedAtRedirect('invalid_request', `missing required parameter '${missing}'`);
  }
}
