// client_id names a client of this issuer (400: the client's redirect_uri is not known yet).
import type { Client, Provider } from 'oidc-provider';
import { param, type AuthorizeParams } from './params.ts';
import { refused } from './refusals.ts';

export async function checkClient(provider: Provider, params: AuthorizeParams): Promise<Client> {
  const clientId = param(params, 'client_id');
  if (!clientId) throw refused('invalid_request', "missing required parameter 'client_id'");
  const client = await provider.Client.find(clientId);
  if (!client) throw refused('invalid_client', 'client_id: unknown client');
  return client;
}
