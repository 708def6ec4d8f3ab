// The grant and the authorization code of a proof sign-in, saved through oidc-provider's models so
// its token endpoint redeems the code as one of its own.
import type { Client, Provider } from 'oidc-provider';
import { ACR } from '../domain/authMethods.ts';
import type { Pkce } from './checkPkce.ts';

export interface CodeRequest {
  client: Client;
  accountId: string;
  redirectUri: string;
  /** granted scopes, space-separated */
  scope: string;
  nonce: string | undefined;
  pkce: Pkce;
}

/** The code's value, as the client receives it. */
export async function issueCode(provider: Provider, request: CodeRequest): Promise<string> {
  const { client, accountId, scope, nonce } = request;
  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const code = new provider.AuthorizationCode({
    accountId,
    client,
    grantId,
    redirectUri: request.redirectUri,
    scope,
    authTime: Math.floor(Date.now() / 1000),
    amr: ['proof'],
    acr: ACR.single,
    gty: 'authorization_code',
    ...(nonce ? { nonce } : {}),
    ...request.pkce,
  });
  return code.save();
}
