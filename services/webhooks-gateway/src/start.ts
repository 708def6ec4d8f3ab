// Composition root of the webhooks-gateway service: its config, routes and the shared runtime.
import { startHttpService, type StartedService } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import { WebhooksGatewayConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.00.11.02';

export function startWebhooksGateway(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedService> {
  const settings = loadConfig(WebhooksGatewayConfig, env);
  return startHttpService(
    {
      service: 'webhooks',
      port: settings.WEBHOOKS_PORT,
      apiVersion: API_VERSION,
      variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data', wellKnownPublicKey: true },
    },
    env,
  );
}
