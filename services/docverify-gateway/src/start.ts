// Composition root of the docverify gateway: its config, stores, routes and the shared runtime.
import { startHttpService, type StartedService } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import { createSecretBox } from '@idv/crypto';
import type { EventEnvelope } from '@idv/contracts';
import { EventOutbox } from '@idv/db';
import { DocverifyGatewayConfig } from './config.ts';
import { verificationConfigRoutes } from './routes/verificationConfigs.ts';
import { verifierRoutes } from './routes/verifiers.ts';
import { verifyRoutes } from './routes/verify.ts';
import { verificationMetrics } from './verification/metrics.ts';
import { QueueWaits } from './verification/queueWaits.ts';
import { wellKnownRoutes } from './routes/wellKnown.ts';
import { VerificationConfigStore } from './store/verificationConfigs.ts';
import { VerifierStore } from './store/verifiers.ts';
import { OUTBOX_TABLE, VerificationStore } from './store/verifications.ts';
import { startRetentionSweep } from './jobs/retentionSweep.ts';

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
      routes: (runtime) => {
        const box = createSecretBox(runtime.masterKey);
        const cacheMs = settings.DOCVERIFY_LOOKUP_CACHE_MS;
        // events owed to answered callers; every replica relays what is left behind
        const outbox = new EventOutbox<EventEnvelope>(
          runtime.db,
          OUTBOX_TABLE,
          (event) => runtime.broker.publishEvent(event),
          runtime.logger,
        );
        outbox.start();
        runtime.lifecycle.onStop('event outbox relay', 0, () => outbox.stop());
        const verifiers = new VerifierStore(runtime.db, box, outbox, cacheMs);
        const configs = new VerificationConfigStore(runtime.db, cacheMs);
        const verifications = new VerificationStore(runtime.db, box);
        runtime.lifecycle.onStop(
          'retention sweep',
          0,
          startRetentionSweep(verifications, settings.RETENTION_SWEEP_MS, runtime.logger),
        );
        const deps = { auth: runtime.auth, tenants: runtime.tenants, verifiers, configs };
        const verify = {
          ...deps,
          ...verificationMetrics(runtime.registry),
          broker: runtime.broker,
          box,
          verifications,
          outbox,
          logger: runtime.logger,
          deadlineMs: settings.VERIFY_DEADLINE_MS,
          queueWaits: new QueueWaits(),
          queuePrefix: settings.CONNECTOR_QUEUE_PREFIX,
          serviceKey: async () => (await runtime.serviceKeys.currentKey()).key,
        };
        return [
          ...wellKnownRoutes,
          ...verifierRoutes(deps),
          ...verificationConfigRoutes(deps),
          ...verifyRoutes(verify),
        ];
      },
    },
    env,
  );
}
