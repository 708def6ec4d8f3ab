// Composition root of the oauth service: builds its dependencies and starts it.
import { createServiceRuntime, serve, type ServiceRuntime } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import type { RunningServer } from '@idv/http';
import { OauthConfig } from './config.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.09.01';

export interface StartedOauth {
  runtime: ServiceRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startOauth(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedOauth> {
  const settings = loadConfig(OauthConfig, env);
  const runtime = await createServiceRuntime({ service: 'oauth', env });
  const server = await serve(runtime, {
    port: settings.OAUTH_PORT,
    routes: [],
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'no-content', ecdsaHelper: 'dataStr' },
  });
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}
