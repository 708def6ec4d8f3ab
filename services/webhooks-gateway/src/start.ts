// Composition root of the webhooks-gateway service: its config, stores, routes and the shared runtime.
import { startHttpService, type StartedService } from '@idv/service-runtime';
import { loadConfig } from '@idv/config';
import { createSecretBox } from '@idv/crypto';
import { intakeAllowedPlatformEvents, WebhooksGatewayConfig } from './config.ts';
import { deliveryRoutes } from './routes/deliveries.ts';
import { eventIntakeRoutes } from './routes/eventIntake.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { DeliveryLog } from './store/deliveries.ts';
import { WebhookStore } from './store/webhooks.ts';

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
      routes: (runtime) => {
        const webhooks = new WebhookStore(
          runtime.db,
          createSecretBox(runtime.masterKey),
          settings.WEBHOOK_SECRET_GRACE_SECONDS,
        );
        const deps = { auth: runtime.auth, tenants: runtime.tenants, webhooks };
        return [
          ...webhookRoutes({
            ...deps,
            servicePublicKey: async () => (await runtime.serviceKeys.currentKey()).key.keyId,
          }),
          ...deliveryRoutes({ ...deps, deliveries: new DeliveryLog(runtime.db) }),
          ...eventIntakeRoutes({
            ...deps,
            broker: runtime.broker,
            allowedPlatformEvents: intakeAllowedPlatformEvents(
              settings.WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS,
            ),
          }),
        ];
      },
    },
    env,
  );
}
