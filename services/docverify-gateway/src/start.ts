// Composition root of the docverify-gateway service: builds its dependencies and starts it.
import { createServiceRuntime, serve, type ServiceRuntime } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import type { RunningServer } from '@idv/http';
import { DocverifyGatewayConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '2.0.0';

export interface StartedDocverifyGateway {
  runtime: ServiceRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startDocverifyGateway(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedDocverifyGateway> {
  const settings = loadConfig(DocverifyGatewayConfig, env);
  const runtime = await createServiceRuntime({ service: 'docverify', env });
  const server = await serve(runtime, {
    port: settings.DOCVERIFY_PORT,
    routes: [],
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data' },
  });
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}
