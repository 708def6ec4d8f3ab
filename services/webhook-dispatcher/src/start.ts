// Composition root of the webhook dispatcher, read top to bottom: the runtime, its jobs (event
// intake into the delivery table, the delivery loop, change notifications), stop handlers, and
// serve (/healthz, /metrics and the other common routes on its own port).
import { ALL_EVENTS } from '@idv/broker';
import { createServiceRuntime, serve, type StartedService } from '@idv/service-runtime';
import { loadConfig } from '@idv/config';
import { WebhookDispatcherConfig } from './config.ts';
import { Attempts } from './delivery/attempt.ts';
import { callbackSender } from './delivery/callbackHttp.ts';
import { DeliveryLoop } from './delivery/deliveryLoop.ts';
import { dispatcherMetrics } from './delivery/metrics.ts';
import { OAuthTokens } from './delivery/oauthTokens.ts';
import { GuardedHttp, parseAllowList, SsrfGuard } from '@idv/netguard';
import { TargetBreakers } from './delivery/targetBreakers.ts';
import { recordEvent } from './intake/recordEvent.ts';
import { listenForChanges } from './store/changeListener.ts';
import { DeliveryQueue } from './store/deliveryQueue.ts';
import { WebhookCache } from './store/webhookCache.ts';
import { WebhookReader } from './store/webhookReader.ts';

export type StartedDispatcher = StartedService;

/** Interface version of the webhooks spec, reported by the dispatcher's /environment. */
const API_VERSION = '1.00.11.02';

export async function startWebhookDispatcher(
  env: Record<string, string | undefined> = process.env,
): Promise<StartedDispatcher> {
  const settings = loadConfig(WebhookDispatcherConfig, env);
  const runtime = await createServiceRuntime({ service: 'webhooks', env });
  const { db, logger, lifecycle } = runtime;

  // stores and jobs
  const guard = new SsrfGuard(parseAllowList(settings.WEBHOOK_SSRF_ALLOW));
  const metrics = dispatcherMetrics(runtime.registry);
  const agents = guard.agents();
  // OAuth token requests (rare, cached) through the guarded client; callbacks through
  // callbackSender, node:http over the same guard's agents (per request the cheapest)
  const http = new GuardedHttp(settings.WEBHOOK_HTTP_TIMEOUT_MS, guard, 'idv-webhook-dispatcher');
  const breakers = new TargetBreakers({
    slots: {
      webhook: settings.WEBHOOK_TARGET_CONCURRENCY,
      tenant: settings.WEBHOOK_TENANT_CONCURRENCY,
      communityPerOrigin: settings.WEBHOOK_COMMUNITY_ORIGIN_CONCURRENCY,
      origin: settings.WEBHOOK_ORIGIN_CONCURRENCY,
    },
    callTimeoutMs: settings.WEBHOOK_HTTP_TIMEOUT_MS + 1000,
    resetTimeoutMs: settings.WEBHOOK_BREAKER_RESET_MS,
  });
  metrics.countBreakers(() => breakers.counts());
  const webhooks = new WebhookCache(
    new WebhookReader(db, runtime.keyring),
    settings.WEBHOOK_CACHE_TTL_MS,
  );

  const tokens = new OAuthTokens(http);
  const queue = new DeliveryQueue(db, settings.WEBHOOK_LEASE_MS);
  const attempts = new Attempts(
    {
      send: callbackSender(agents, settings.WEBHOOK_HTTP_TIMEOUT_MS),
      breakers,
      tokens,
      servicePrivateKey: async () => (await runtime.serviceKeys.currentKey()).key.keySecret,
      checkUrl: (url) => guard.checkUrl(url),
    },
    metrics,
    logger,
    settings.WEBHOOK_RETRY_BASE_MS,
  );
  const loop = new DeliveryLoop(queue, webhooks, attempts, metrics, logger, {
    maxInFlight: settings.WEBHOOK_MAX_IN_FLIGHT,
    pollMs: settings.WEBHOOK_POLL_MS,
  });
  const listener = listenForChanges(
    runtime.config.DATABASE_URL,
    {
      webhookChanged: (change) => {
        webhooks.invalidate(change);
        tokens.forgetWebhook(change.id);
      },
      deliveriesDue: () => loop.wake(),
      resynced: () => {
        webhooks.clear();
        tokens.clear();
      },
    },
    logger,
  );
  const stopping = new AbortController();
  const consumer = await runtime.broker.subscribeEvents(
    runtime.config.WEBHOOK_EVENTS_QUEUE,
    [ALL_EVENTS],
    recordEvent({
      webhooks,
      queue,
      attempts,
      logger,
      recorded: metrics.eventRecorded,
      wake: () => loop.wake(),
      wakeAt: (at) => loop.wakeAt(at),
      stopping: stopping.signal,
    }),
    // each event is held while its callbacks are attempted: the prefetch bounds those in flight
    { prefetch: settings.WEBHOOK_MAX_IN_FLIGHT },
  );
  loop.start();

  // stop handlers
  lifecycle.onStop('event consumer', 0, async () => {
    stopping.abort();
    await consumer.stop();
  });
  lifecycle.onStop('delivery loop', 0, () => loop.stop());
  lifecycle.onStop('change listener', 10, async () => {
    breakers.shutdown();
    await listener.stop();
  });
  lifecycle.onStop('token client', 20, () => http.close());

  // routes: none of its own; the common ones serve /healthz and /metrics
  return serve(runtime, {
    port: settings.WEBHOOK_DISPATCHER_PORT,
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data', wellKnownPublicKey: true },
    routes: [],
  });
}
