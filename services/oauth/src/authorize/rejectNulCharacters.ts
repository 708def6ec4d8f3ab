// No NUL in the parameters read here: they are stored (grant, code, replay log) as text, which
// PostgreSQL cannot hold with a NUL in it.
import { OWN_PARAMS, param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

export function rejectNulCharacters(params: AuthorizeParams): void {
  if (OWN_PARAMS.some((name) => param(params, name)?.includes('\u0000'))) {
    throw new RefusedAtRedirect('invalid_request', 'parameters must not contain NUL characters');
  }
}
