// The proof flow answers with a code only.
import { param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

export function checkResponseType(params: AuthorizeParams): void {
  if (param(params, 'response_type') !== 'code') {
    throw new RefusedAtRedirect('unsupported_response_type', 'response_type must be code');
  }
}
