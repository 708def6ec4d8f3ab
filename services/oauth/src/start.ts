// Composition root of the oauth service: its config, routes and the shared runtime.
import { startHttpService, type StartedService } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import { OauthConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.09.01';

export function startOauth(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedService> {
  const settings = loadConfig(OauthConfig, env);
  return startHttpService(
    {
      service: 'oauth',
      port: settings.OAUTH_PORT,
      apiVersion: API_VERSION,
      variant: { serviceKeyReset: 'no-content', ecdsaHelper: 'dataStr' },
    },
    env,
  );
}
