// The client must be registered for the authorization code grant the code is redeemed with.
import type { Client } from 'oidc-provider';
import { RefusedAtRedirect } from './refusals.ts';

export function checkClientGrantType(client: Client): void {
  if (!client.grantTypeAllowed('authorization_code')) {
    throw new RefusedAtRedirect(
      'unauthorized_client',
      'the client may not use the authorization code grant',
    );
  }
}
