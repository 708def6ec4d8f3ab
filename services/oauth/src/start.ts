// Composition root of the oauth service: stores, per-community providers, routes, sweeps.
import { createServiceRuntime, serve, type StartedService } from '@idv/common-endpoints';
import { loadConfig } from '@idv/config';
import { OauthConfig } from './config.ts';
import { oauthEvents } from './events.ts';
import { ProviderCache } from './providerCache.ts';
import { communityRouter } from './routes/communityRouter.ts';
import { AccountStore } from './store/accountStore.ts';
import { ClientStore } from './store/clientStore.ts';
import { sweepExpiredModels } from './store/modelStore.ts';
import { SigningKeyStore } from './store/signingKeyStore.ts';
import { TrustStore } from './store/trustStore.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.09.01';

export async function startOauth(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedService> {
  const settings = loadConfig(OauthConfig, env);
  const runtime = await createServiceRuntime({ service: 'oauth', env });
  const { db, masterKey, logger } = runtime;
  const accounts = new AccountStore(db);
  const trust = new TrustStore(db);
  const events = oauthEvents(runtime.broker, logger);
  const providers = new ProviderCache({
    db,
    masterKey,
    tenants: runtime.tenants,
    clients: new ClientStore(db, masterKey),
    accounts,
    keys: new SigningKeyStore(db, masterKey),
    keyRefreshMs: settings.OAUTH_KEY_REFRESH_MS,
    onProvider: ({ provider, community }) => {
      provider.on('grant.success', (ctx) => {
        const { client, params, entities } = ctx.oidc;
        if (!client) return;
        events(community, 'E_OAUTH_TOKEN_ISSUED', {
          clientId: client.clientId,
          grantType: String(params?.grant_type ?? ''),
          ...(entities.Account ? { sub: entities.Account.accountId } : {}),
        });
      });
      provider.on('server_error', (_ctx, err) => logger.error({ err }, 'oidc-provider error'));
    },
  });

  const sweep = setInterval(() => {
    Promise.all([sweepExpiredModels(db), trust.sweep()]).catch((err: unknown) =>
      logger.warn({ err }, 'oauth sweep failed'),
    );
  }, settings.OAUTH_SWEEP_INTERVAL_MS);
  sweep.unref();
  runtime.lifecycle.onStop('oauth sweep', 0, async () => clearInterval(sweep));

  const router = communityRouter({
    providers,
    accounts,
    trust,
    events,
    auth: runtime.auth,
    publicUrl: settings.OAUTH_PUBLIC_URL,
  });
  const server = await serve(runtime, {
    port: settings.OAUTH_PORT,
    routes: [],
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'no-content', ecdsaHelper: 'dataStr' },
    mounts: [{ path: '/community/:community', handler: router }],
  });
  return { runtime, server, stop: () => runtime.lifecycle.stop() };
}
