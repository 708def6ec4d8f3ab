// A proof comes with plain parameters only: a request object or request_uri is not read here.
import { param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

export function rejectRequestObject(params: AuthorizeParams): void {
  if (param(params, 'request') || param(params, 'request_uri')) {
    throw new RefusedAtRedirect(
      'invalid_request',
      'request and request_uri are not taken with a proof',
    );
  }
}
