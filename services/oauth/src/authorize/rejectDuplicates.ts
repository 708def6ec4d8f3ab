// As oidc-provider: a parameter given twice is refused, not guessed at.
import { OWN_PARAMS, type AuthorizeParams } from './params.ts';
import { refused } from './refusals.ts';

export function rejectDuplicates(params: AuthorizeParams): void {
  const twice = OWN_PARAMS.find((name) => Array.isArray(params[name]));
  if (twice) throw refused('invalid_request', `'${twice}' parameter must not be provided twice`);
}
