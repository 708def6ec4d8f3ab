// PKCE is optional here; a code_challenge, when given, is S256 (the default method).
import { param, type AuthorizeParams } from './params.ts';
import { RefusedAtRedirect } from './refusals.ts';

export type Pkce = { codeChallenge: string; codeChallengeMethod: string } | Record<string, never>;

export function checkPkce(params: AuthorizeParams): Pkce {
  const codeChallenge = param(params, 'code_challenge');
  const codeChallengeMethod = param(params, 'code_challenge_method') ?? 'S256';
  if (!codeChallenge) return {};
  if (codeChallengeMethod !== 'S256') {
    throw new RefusedAtRedirect('invalid_request', 'code_challenge_method must be S256');
  }
  return { codeChallenge, codeChallengeMethod };
}
