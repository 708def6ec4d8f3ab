// Composition root of the docverify gateway, read top to bottom: the runtime, its stores and jobs
// (event outbox relay, verification runs' and follow-ups' consumers, sweeps), their stop handlers,
// routes (review cases' among them, for operators' bearer tokens too), serve.
import { createImageBudget, createOperatorTokens } from '@idv/auth';
import { createServiceRuntime, serve, type StartedService } from '@idv/service-runtime';
import { loadConfig } from '@idv/config';
import { createSecretBox } from '@idv/crypto';
import type { EventEnvelope } from '@idv/contracts';
import { EventOutbox } from '@idv/db';
import { TenantShares } from '@idv/platform/fairShare';
import { CheckAdmission } from '@idv/capture-checks';
import { pageFiles } from './capture/pageFiles.ts';
import { maskPageToken } from './capture/pageToken.ts';
import { remoteCaptureChecker, remoteCheckMetrics } from './capture/remoteChecks.ts';
import { DocverifyGatewayConfig } from './config.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import { startRetentionSweep } from './retention/retentionSweep.ts';
import { startSessionSweep } from './sessions/sessionSweep.ts';
import { captureApiRoutes } from './capture/captureApiRoutes.ts';
import { connectorCallbackRoutes } from './followUps/connectorCallbackRoutes.ts';
import { capturePageRoutes } from './capture/capturePageRoutes.ts';
import { sessionRoutes } from './sessions/sessionRoutes.ts';
import { operatorSessionRoutes } from './sessions/operatorSessionRoutes.ts';
import { erasureRoutes } from './erasure/erasureRoutes.ts';
import { reviewActionRoutes } from './review/reviewActionRoutes.ts';
import { reviewCaseRoutes } from './review/reviewCaseRoutes.ts';
import { ConnectorMinuteStore } from './connectors/connectorMinuteStore.ts';
import { ReviewCaseStore } from './review/reviewCaseStore.ts';
import { ReviewSealedStore } from './review/reviewSealedStore.ts';
import { ErasureStore } from './erasure/erasureStore.ts';
import { verificationConfigRoutes } from './verificationConfigs/verificationConfigRoutes.ts';
import { verifierRoutes } from './verifiers/verifierRoutes.ts';
import { verifyRoutes } from './verify/verifyRoutes.ts';
import { wellKnownRoutes } from './wellKnown/wellKnownRoutes.ts';
import { CallbackReplayStore } from './followUps/callbackReplayStore.ts';
import { RunStore } from './runs/runStore.ts';
import { SessionImageStore } from './sessions/sessionImageStore.ts';
import { SessionStore } from './sessions/sessionStore.ts';
import { VerificationConfigStore } from './verificationConfigs/verificationConfigStore.ts';
import { ImageUrlHostStore } from './verify/imageUrlHostStore.ts';
import { VerifierStore } from './verifiers/verifierStore.ts';
import { OUTBOX_TABLE, VerificationStore } from './verify/verificationStore.ts';
import { ConnectorCalls } from './connectors/connectorCalls.ts';
import { consumeFollowUps } from './followUps/followUpIntake.ts';
import { verificationMetrics } from './verify/metrics.ts';
import { perCommunityShare } from './runs/communityShare.ts';
import { CommunityTenants } from './runs/communityTenants.ts';
import { QueueWaits } from './connectors/queueWaits.ts';
import { RunQueue } from './runs/runQueue.ts';
import { runSlots } from './runs/runSlots.ts';
import { runPrefetch, SlotPool } from './runs/slotPool.ts';

/** Interface version from the service's spec, reported by /environment. */
export const API_VERSION = '2.0.0';

/** What tests replace: the clock the timers read. */
export interface GatewayOptions {
  clock?: Clock;
}

export async function startDocverifyGateway(
  env: Record<string, string | undefined> = process.env,
  options: GatewayOptions = {},
): Promise<StartedService> {
  const settings = loadConfig(DocverifyGatewayConfig, env);
  const clock = options.clock ?? systemClock;
  const runtime = await createServiceRuntime({ service: 'docverify', env });
  const { db, logger, lifecycle, broker } = runtime;

  // stores and jobs
  const box = createSecretBox(runtime.masterKey);
  const cacheMs = settings.DOCVERIFY_LOOKUP_CACHE_MS;
  // events owed to answered callers; every replica relays what is left behind
  const outbox = new EventOutbox<EventEnvelope>(
    db,
    OUTBOX_TABLE,
    (event) => broker.publishEvent(event),
    logger,
  );
  outbox.start();
  const verifiers = new VerifierStore(db, runtime.keyring, outbox, cacheMs);
  const configs = new VerificationConfigStore(db, cacheMs);
  const imageUrlHosts = new ImageUrlHostStore(db, cacheMs);
  const keys = runtime.keyring;
  const verifications = new VerificationStore(db, keys);
  const images = new SessionImageStore(db, keys, clock);
  const sessions = new SessionStore(db, images, clock);
  const runs = new RunStore(db, keys, clock);
  const reviews = new ReviewCaseStore(db);
  const reviewSealed = new ReviewSealedStore(db, keys);
  // operators' bearer tokens, checked at the operators' issuer (review cases, erasure, edits)
  const operators = createOperatorTokens({ userinfoUrl: runtime.config.OPERATORS_USERINFO_URL });
  // connector calls counted per minute in memory, added to PostgreSQL every few seconds
  const connectorMinutes = new ConnectorMinuteStore(db);
  const connectorCalls = new ConnectorCalls(connectorMinutes, logger);
  connectorCalls.start(settings.CONNECTOR_STATS_FLUSH_MS);
  const runQueue = new RunQueue(broker, runs, settings.DOCVERIFY_RUNS_QUEUE, logger);
  // a community's tenant, for the fair shares per tenant (runs, capture checks)
  const communityTenants = new CommunityTenants(runtime.tenants);
  const deps = { auth: runtime.auth, operators, tenants: runtime.tenants, verifiers, configs };
  const serviceKey = async () => (await runtime.serviceKeys.currentKey()).key;
  // the communities' image budgets: /verify images and capture uploads together
  const imageBudget = createImageBudget(runtime.rateBuckets, runtime.registry, runtime.refusalHold);
  const verify = {
    ...deps,
    ...verificationMetrics(runtime.registry),
    broker,
    box,
    keys,
    imageUrlHosts,
    verifications,
    sessions,
    runs,
    images,
    reviews,
    reviewSealed,
    reviewHoldMs: settings.REVIEW_HOLD_HOURS * 3_600_000,
    runQueue,
    clock,
    outbox,
    logger,
    deadlineMs: settings.VERIFY_DEADLINE_MS,
    asyncDeadlineMs: settings.ASYNC_VERIFY_DEADLINE_MS,
    imageBudget,
    queueWaits: new QueueWaits(),
    connectorCalls,
    queuePrefix: settings.CONNECTOR_QUEUE_PREFIX,
    serviceKey,
    followUps: {
      answerTo: settings.DOCVERIFY_FOLLOWUPS_QUEUE,
      deadlineMs: settings.PENDING_FOLLOW_UP_MS,
      callbackBaseUrl: settings.CONNECTOR_CALLBACK_URL,
    },
  };
  const session = {
    ...verify,
    checkCapture: remoteCaptureChecker({
      broker,
      box,
      queue: settings.CAPTURE_CHECK_QUEUE,
      waitMs: settings.CAPTURE_CHECK_WAIT_MS,
      tenantOf: (communityId) => communityTenants.tenantOf(communityId),
      imageBudget,
      admission: new CheckAdmission({
        perTenant: settings.CAPTURE_CHECKS_PER_TENANT,
        perCommunity: settings.CAPTURE_CHECKS_PER_COMMUNITY,
        total: settings.CAPTURE_CHECKS_QUEUED,
      }),
      logger,
      metrics: remoteCheckMetrics(runtime.registry),
    }),
    publicUrl: settings.DOCVERIFY_PUBLIC_URL,
    runDeadlineMs: settings.ASYNC_VERIFY_DEADLINE_MS,
    maxImageBytes: settings.SESSION_IMAGE_MAX_BYTES,
    files: pageFiles(settings.CAPTURE_PAGE_DIR),
  };
  const keepMinutesMs = settings.CONNECTOR_STATS_RETENTION_DAYS * 86_400_000;
  const stopRetentionSweep = startRetentionSweep(
    [
      { what: 'verification results', sweep: () => verifications.sweep() },
      {
        what: 'connector minutes',
        sweep: () => connectorMinutes.sweep(new Date(Date.now() - keepMinutesMs)),
      },
    ],
    settings.RETENTION_SWEEP_MS,
    logger,
  );
  const stopSessionSweep = startSessionSweep(session, settings.SESSION_SWEEP_MS, logger);
  // runs in progress when this gateway stops go back to the queue for another replica; a tenant and
  // a community get their shares of the slots, a run waiting (over a share, backing off) is parked
  const stopping = new AbortController();
  const slots = {
    ...session,
    runQueue,
    shares: new TenantShares({
      perTenant: perCommunityShare(settings.RUNS_PREFETCH, settings.RUNS_PER_TENANT),
      perCommunity: perCommunityShare(settings.RUNS_PREFETCH, settings.RUNS_PER_COMMUNITY),
    }),
    slotPool: new SlotPool(settings.RUNS_PREFETCH),
    communityTenants,
    requeue: (id: string, communityId: string) => runQueue.enqueue(id, communityId),
    retries: {
      retries: settings.RUN_RETRIES,
      firstMs: settings.RUN_RETRY_FIRST_MS,
      maxMs: settings.RUN_RETRY_MAX_MS,
    },
    attemptMs: settings.RUN_ATTEMPT_MS,
  };
  const runConsumer = await runQueue.consume(
    runSlots(slots, stopping.signal),
    runPrefetch(settings.RUNS_PREFETCH),
  );
  // connectors' final answers to pending kinds, polled or called back
  const followUps = await consumeFollowUps(verify, settings.DOCVERIFY_FOLLOWUPS_QUEUE);

  // stop handlers: 0 take no new work, 10 close what the work used (the runtime closes the rest)
  lifecycle.onStop('event outbox relay', 0, () => outbox.stop());
  lifecycle.onStop('retention sweep', 0, stopRetentionSweep);
  lifecycle.onStop('session sweep', 0, stopSessionSweep);
  lifecycle.onStop('verification runs', 0, async () => {
    stopping.abort();
    await runConsumer.stop();
  });
  lifecycle.onStop('follow-ups', 0, () => followUps.stop());
  // after the runs ended (0), before the database pool closes (20)
  lifecycle.onStop('connector minutes', 10, () => connectorCalls.stop());

  // routes
  const routes = [
    ...wellKnownRoutes,
    ...verifierRoutes(deps),
    ...verificationConfigRoutes(deps),
    ...verifyRoutes(verify),
    ...sessionRoutes(session),
    ...operatorSessionRoutes(session),
    ...reviewCaseRoutes({ ...session, operators }),
    ...reviewActionRoutes({ ...session, operators }),
    ...erasureRoutes({
      auth: runtime.auth,
      operators,
      tenants: runtime.tenants,
      erasures: new ErasureStore(db, keys, clock),
      flush: (events) => void outbox.flush(events),
    }),
    ...capturePageRoutes(session),
    ...captureApiRoutes(session),
    ...connectorCallbackRoutes({
      ...verify,
      replays: new CallbackReplayStore(db),
      answerTo: settings.DOCVERIFY_FOLLOWUPS_QUEUE,
      followUpMs: settings.PENDING_FOLLOW_UP_MS,
      callbackBaseUrl: settings.CONNECTOR_CALLBACK_URL,
    }),
  ];

  return serve(runtime, {
    port: settings.DOCVERIFY_PORT,
    apiVersion: API_VERSION,
    variant: { serviceKeyReset: 'key-array', ecdsaHelper: 'data' },
    accessLogPath: maskPageToken,
    routes,
  });
}
