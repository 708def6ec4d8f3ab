// Composition root of the webhooks-gateway service: builds its dependencies and starts it.
import { createServiceRuntime, serve, type ServiceRuntime } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import type { RunningServer } from '@idv/http';
import { WebhooksGatewayConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.00.11.02';

export interface StartedWebhooksGateway {
  runtime: ServiceRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startWebhooksGateway(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedWebhooksGateway> {
  const settings = loadConfig(WebhooksGatewayConfig, env);
  const runtime = await createServiceRuntime({ service: 'webhooks', env });
  const server = await serve(runtime, {
    port: settings.WEBHOOKS_PORT,
    routes: [],
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data', wellKnownPublicKey: true },
  });
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}
