// redirect_uri is one the client registered (400 otherwise): only then may errors be sent there.
import type { Client } from 'oidc-provider';
import { param, type AuthorizeParams } from './params.ts';
import { refused } from './refusals.ts';

export function checkRedirectUri(client: Client, params: AuthorizeParams): string {
  const redirectUri = param(params, 'redirect_uri');
  if (!redirectUri) throw refused('invalid_request', "missing required parameter 'redirect_uri'");
  if (!client.redirectUriAllowed(redirectUri)) {
    throw refused('invalid_redirect_uri', 'redirect_uri: not registered for this client');
  }
  return redirectUri;
}
