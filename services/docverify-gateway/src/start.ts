// Composition root of the docverify-gateway service: its config, routes and the shared runtime.
import { startHttpService, type StartedService } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import { DocverifyGatewayConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '2.0.0';

export function startDocverifyGateway(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedService> {
  const settings = loadConfig(DocverifyGatewayConfig, env);
  return startHttpService(
    {
      service: 'docverify',
      port: settings.DOCVERIFY_PORT,
      apiVersion: API_VERSION,
      variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data' },
    },
    env,
  );
}
