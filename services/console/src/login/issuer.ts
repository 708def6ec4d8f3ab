// The operators' issuer as the console's OpenID Connect client sees it (openid-client): found by
// discovery on first use and kept; a failed discovery is tried again by the next login.
import * as client from 'openid-client';
import { Unavailable } from '@idv/http';

export interface IssuerSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export type IssuerConfiguration = () => Promise<client.Configuration>;

export function operatorsIssuer(settings: IssuerSettings): IssuerConfiguration {
  let found: Promise<client.Configuration> | undefined;
  const discover = async () => {
    if (!settings.clientId || !settings.clientSecret)
      throw new Unavailable(
        "the console has no client at the operators' issuer (CONSOLE_CLIENT_ID, CONSOLE_CLIENT_SECRET)",
        60,
      );
    const url = new URL(settings.issuer);
    return client.discovery(
      url,
      settings.clientId,
      settings.clientSecret,
      client.ClientSecretBasic(settings.clientSecret),
      // the development issuer is plain http on this machine
      url.protocol === 'http:'
        ? { execute: [client.allowInsecureRequests], timeout: 10 }
        : { timeout: 10 },
    );
  };
  return () => {
    found ??= discover().catch((err: unknown) => {
      found = undefined;
      if (err instanceof Unavailable) throw err;
      throw new Unavailable(
        `the operators' issuer cannot be reached: ${(err as Error).message}`,
        5,
      );
    });
    return found;
  };
}
