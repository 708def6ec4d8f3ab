// Composition root of the oauth service, read top to bottom: the runtime, its stores, the
// per-community providers and the sweep, stop handlers, the issuers' router, serve.
import { Gauge } from '@idv/observability';
import { createServiceRuntime, serve, type StartedService } from '@idv/service-runtime';
import { loadConfig } from '@idv/config';
import type { ExternalOperation } from '@idv/http';
import { OauthConfig } from './config.ts';
import { oauthEvents } from './events.ts';
import { KnownDevices } from './login/knownDevices.ts';
import { LoginSteps } from './login/loginSteps.ts';
import { signInKeys } from './login/signInKeys.ts';
import { PasskeyChallenges } from './login/passkeyChallenges.ts';
import { PasswordChecks } from './login/passwordChecks.ts';
import { refusalEvents } from './login/refusalEvents.ts';
import { LoginThrottle } from './login/throttle.ts';
import { pageAssets } from './pages/assets.ts';
import { ProviderCache } from './providerCache.ts';
import { communityRouter } from './routes/communityRouter.ts';
import { AccountStore } from './store/accountStore.ts';
import { ClientStore } from './store/clientStore.ts';
import { FactorStore } from './store/factorStore.ts';
import { OperatorStore } from './store/operatorStore.ts';
import { SignInSettingsStore } from './store/signInSettings.ts';
import { sweepExpiredModels } from './store/modelStore.ts';
import { SigningKeyStore } from './store/signingKeyStore.ts';
import { TrustStore } from './store/trustStore.ts';

const issuer = '/community/{community}';

/**
 * The per-community issuer routes, served by the mounted router, for /openapi.json. Errors are
 * OAuth 2.0 error bodies, except 404 (unknown community) and the eam-context route's, which are
 * the platform's error body. No client authentication at all is 400 invalid_request; a wrong one
 * is 401 invalid_client.
 */
const ISSUER_OPERATIONS: ExternalOperation[] = [
  {
    method: 'GET',
    path: `${issuer}/v1/authorize`,
    summary: 'starts an authorization: 303 to the login page or to redirect_uri with an error',
    success: 303,
    errors: [400, 404],
  },
  {
    method: 'POST',
    path: `${issuer}/v1/authorize`,
    summary:
      'authorization, form-encoded; with proof_of_authentication_jwt: 303 to redirect_uri with a code or an error',
    success: 303,
    errors: [400, 404],
  },
  {
    method: 'POST',
    path: `${issuer}/v1/token`,
    summary:
      'token endpoint (authorization_code with PKCE, refresh_token, client_credentials); HTTP Basic client auth',
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: `${issuer}/v1/introspect`,
    summary: 'token introspection; HTTP Basic client auth',
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: `${issuer}/v1/revoke`,
    summary: 'token revocation; HTTP Basic client auth',
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: `${issuer}/v1/userinfo`,
    summary: 'claims of the access token holder (Bearer)',
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: `${issuer}/request`,
    summary: 'pushed authorization request (RFC 9126, oidc-provider default path); HTTP Basic',
    success: 201,
    errors: [400, 401, 404],
  },
  { method: 'GET', path: `${issuer}/v1/logout`, summary: 'end session', errors: [400, 404] },
  {
    method: 'GET',
    path: `${issuer}/v1/jwks`,
    summary: 'public signing keys of the issuer (never d)',
    errors: [404],
  },
  {
    method: 'GET',
    path: `${issuer}/.well-known/openid-configuration`,
    summary: 'discovery document',
    errors: [404],
  },
  {
    method: 'GET',
    path: `${issuer}/v1/interaction/{uid}/eam-context`,
    summary: 'oid and tid of a validated external id_token_hint (credential headers)',
    security: 'credentials',
    errors: [400, 401, 403, 404, 503],
  },
];

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '1.09.01';

export interface OauthOptions {
  /** the clock the sign-in settings' cache ages by (ms since the epoch); tests move it on */
  settingsClock?: () => number;
}

export async function startOauth(
  env: Record<string, string | undefined> = process.env,
  options: OauthOptions = {},
): Promise<StartedService> {
  const settings = loadConfig(OauthConfig, env);
  const runtime = await createServiceRuntime({ service: 'oauth', env });
  const { db, masterKey, logger, lifecycle } = runtime;

  // stores and jobs; each MAC of the sign-in has a key of its own, derived from MASTER_KEY
  const keys = signInKeys(masterKey);
  const accounts = new AccountStore(db);
  const trust = new TrustStore(db);
  const events = oauthEvents(runtime.broker, logger);
  const settingsStore = new SignInSettingsStore(
    db,
    runtime.config.OPERATORS_COMMUNITY,
    options.settingsClock,
  );
  const factors = new FactorStore(db, runtime.keyring, keys.recoveryCodes);
  const throttle = new LoginThrottle(db, keys.throttle);
  const steps = new LoginSteps(db);
  const providers = new ProviderCache({
    db,
    masterKey,
    factors,
    settings: settingsStore,
    operators: new OperatorStore(db),
    operatorsCommunity: runtime.config.OPERATORS_COMMUNITY,
    tenants: runtime.tenants,
    clients: new ClientStore(db, runtime.keyring),
    accounts,
    keys: new SigningKeyStore(db, runtime.keyring),
    keyRefreshMs: settings.OAUTH_KEY_REFRESH_MS,
    durableIssuance: settings.OAUTH_DURABLE_ISSUANCE,
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
  new Gauge({
    name: 'oauth_issuers_cached',
    help: 'community issuers built and kept (a few public origins per community, 500 in all)',
    registers: [runtime.registry],
    collect() {
      this.set(providers.size);
    },
  });
  const sweep = setInterval(() => {
    Promise.all([sweepExpiredModels(db), trust.sweep(), throttle.sweep(), steps.sweep()]).catch(
      (err: unknown) => logger.warn({ err }, 'oauth sweep failed'),
    );
  }, settings.OAUTH_SWEEP_INTERVAL_MS);
  sweep.unref();

  // stop handlers
  lifecycle.onStop('oauth sweep', 0, async () => clearInterval(sweep));

  // routes: the per-community issuers own their sub-path, so they are a mount
  const router = communityRouter({
    providers,
    accounts,
    trust,
    events,
    settings: settingsStore,
    assets: pageAssets(),
    factors,
    throttle,
    steps,
    challenges: new PasskeyChallenges(keys.passkeyChallenges),
    devices: new KnownDevices(keys.knownDevices),
    refusalEvents: refusalEvents(events),
    passwordChecks: new PasswordChecks(),
    auth: runtime.auth,
    publicUrl: settings.OAUTH_PUBLIC_URL,
  });

  return serve(runtime, {
    port: settings.OAUTH_PORT,
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'no-content', ecdsaHelper: 'dataStr' },
    routes: [],
    mounts: [{ path: '/community/:community', handler: router }],
    externalOperations: ISSUER_OPERATIONS,
  });
}
