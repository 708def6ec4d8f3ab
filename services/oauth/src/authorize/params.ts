// The form parameters of POST /v1/authorize, and the ones this route reads itself.
export type AuthorizeParams = Record<string, unknown>;

/** The parameters read here; the others go on to oidc-provider untouched. */
export const OWN_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'proof_of_authentication_jwt',
  'request',
  'request_uri',
];

/** A parameter's value; an empty one counts as absent. */
export function param(params: AuthorizeParams, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
