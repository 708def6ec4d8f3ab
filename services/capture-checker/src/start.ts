// Composition root of a capture-check worker, read top to bottom: the runtime (config, logger,
// metrics, broker), the image threads and the MRZ OCR, the checks within this worker's bounds, the
// consumer of capture.checks, stop handlers, and serve (/healthz and /metrics only). No database:
// a request carries its image, sealed, and the verdict goes back to the gateway that waits for it.
// It scales like a connector type: more replicas on the queue's length (infra/k8s, KEDA).
import { CheckAdmission } from '@idv/capture-checks';
import { captureChecker } from '@idv/capture-checks/engine';
import type { Broker } from '@idv/broker';
import { createSecretBox } from '@idv/crypto';
import type { Lifecycle } from '@idv/http';
import type { Logger, Registry } from '@idv/observability';
import { createProcessRuntime, serveHealth, type ProcessRuntime } from '@idv/service-runtime';
import { capacityOf, loadCheckerConfig, type CaptureCheckerSettings } from './config.ts';
import { checkEngine } from './engine.ts';
import { HeavyLaneProcess } from './heavyLane.ts';
import { checkMetrics, createCheckHandler } from './handleCheck.ts';

export interface RunningChecker {
  runtime: ProcessRuntime;
  settings: CaptureCheckerSettings;
  queue: string;
  logger: Logger;
  registry: Registry;
  broker: Broker;
  lifecycle: Lifecycle;
  /** base URL of /healthz and /metrics when WORKER_METRICS_PORT is set */
  metricsUrl: string | undefined;
  /** the process of the costly images, once one came (CAPTURE_HEAVY_CHECK_MB) */
  heavyLane: HeavyLaneProcess | undefined;
  stop(): Promise<void>;
}

export interface CheckerOptions {
  logDestination?: NodeJS.WritableStream;
}

export async function startCaptureChecker(
  env: Record<string, string | undefined> = process.env,
  options: CheckerOptions = {},
): Promise<RunningChecker> {
  const settings = loadCheckerConfig(env);
  const runtime = createProcessRuntime({
    name: 'capture-checker',
    settings,
    broker: { connectionName: 'capture-checker' },
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  const { logger, registry, broker, lifecycle } = runtime;

  // the image threads, the OCR, and the checks over them within this worker's bounds: it holds
  // `held` checks (its prefetch), a tenant and a community at most their share of them, a session
  // one
  const { threads, held, perTenant, perCommunity } = capacityOf(settings);
  const engine = checkEngine(settings, threads, logger);
  // the costly images in a process of their own at the lowest CPU priority (heavyLane.ts)
  const heavy =
    settings.CAPTURE_HEAVY_CHECK_MB > 0
      ? new HeavyLaneProcess(settings.CAPTURE_HEAVY_CHECK_MB * 1_000_000, env, logger)
      : undefined;
  // a tenant's checks over its share wait for it, as many as the share
  const admission = new CheckAdmission({
    perTenant,
    perCommunity,
    total: held,
    waiting: perTenant,
  });
  const handler = createCheckHandler({
    box: createSecretBox(runtime.masterKey),
    check: captureChecker(engine.pool, engine.contentChecks, admission, logger, heavy),
    metrics: checkMetrics(registry),
  });
  const queue = settings.CAPTURE_CHECK_QUEUE;
  // a classic queue: a check is transient, bounded by its deadline (per-message expiration), and
  // its gateway waits for it
  const consumer = await broker.consume(queue, handler, { prefetch: held, queueType: 'classic' });

  // stop handlers: 0 take no new checks and finish the running ones; 10 end the threads
  lifecycle.onStop('consumer', 0, () => consumer.stop());
  lifecycle.onStop('image threads', 10, () => engine.close());
  lifecycle.onStop('heavy lane', 10, async () => heavy?.close());
  logger.info(
    { queue, threads, held, perTenant, perCommunity, heavyMb: settings.CAPTURE_HEAVY_CHECK_MB },
    'capture checker consuming',
  );

  const served =
    settings.WORKER_METRICS_PORT > 0
      ? await serveHealth(runtime, { port: settings.WORKER_METRICS_PORT })
      : undefined;
  return {
    runtime,
    settings,
    queue,
    logger,
    registry,
    broker,
    lifecycle,
    metricsUrl: served?.server.url,
    heavyLane: heavy,
    stop: () => lifecycle.stop(),
  };
}
