// Composition root of the webhooks-gateway service, read top to bottom: the runtime, its stores,
// its routes, serve.
import { createOperatorTokens } from '@idv/auth';
import { createServiceRuntime, serve, type StartedService } from '@idv/service-runtime';
import { loadConfig } from '@idv/config';
import { intakeRefusedPlatformEvents, WebhooksGatewayConfig } from './config.ts';
import { deliveryRoutes } from './routes/deliveries.ts';
import { eventIntakeRoutes } from './routes/eventIntake.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { DeliveryLog } from './store/deliveries.ts';
import { WebhookStore } from './store/webhooks.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.00.11.02';

export async function startWebhooksGateway(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedService> {
  const settings = loadConfig(WebhooksGatewayConfig, env);
  const runtime = await createServiceRuntime({ service: 'webhooks', env });
  const { db, auth, tenants, broker } = runtime;

  // stores
  const webhooks = new WebhookStore(db, runtime.keyring, settings.WEBHOOK_SECRET_GRACE_SECONDS);
  const deliveries = new DeliveryLog(db);

  // routes
  const deps = { auth, tenants, webhooks };
  const routes = [
    ...webhookRoutes({
      ...deps,
      servicePublicKey: async () => (await runtime.serviceKeys.currentKey()).key.keyId,
    }),
    ...deliveryRoutes({
      ...deps,
      deliveries,
      operators: createOperatorTokens({ userinfoUrl: runtime.config.OPERATORS_USERINFO_URL }),
    }),
    ...eventIntakeRoutes({
      ...deps,
      broker,
      refusedPlatformEvents: intakeRefusedPlatformEvents(settings),
    }),
  ];

  return serve(runtime, {
    port: settings.WEBHOOKS_PORT,
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data', wellKnownPublicKey: true },
    routes,
  });
}
