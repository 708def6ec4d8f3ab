// Composition root of a connector worker, read top to bottom: the runtime (config, logger, metrics,
// broker), breakers, the adapter of its type and the consumer of idv.connector.<type>, stop
// handlers, and serve (/healthz and /metrics only). No database: the job carries what it needs.
import type { Broker } from '@idv/broker';
import { connectorQueue } from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import type { Lifecycle } from '@idv/http';
import { GuardedHttp, parseAllowList, SsrfGuard } from '@idv/netguard';
import type { Logger, Registry } from '@idv/observability';
import { createProcessRuntime, serveHealth, type ProcessRuntime } from '@idv/service-runtime';
import { startAdapter } from './connectors/index.ts';
import type { Adapter, RunningAdapter } from './connectors/connector.ts';
import { TenantShares } from '@idv/platform/fairShare';
import { loadWorkerConfig, prefetchOf, sharesOf, type ConnectorWorkerSettings } from './config.ts';
import { startFollowUps } from './jobs/followUpQueues.ts';
import { createJobHandler } from './jobs/handleJob.ts';
import { VerifierGates } from './provider/admission.ts';
import { VerifierBreakers } from './provider/breakers.ts';
import { ClientCertificates } from './provider/clientCertificates.ts';

import { providerMetrics } from './provider/metrics.ts';
import { TrailingCalls } from './provider/trailing.ts';

export interface RunningWorker {
  runtime: ProcessRuntime;
  settings: ConnectorWorkerSettings;
  queue: string;
  logger: Logger;
  registry: Registry;
  broker: Broker;
  breakers: VerifierBreakers;
  lifecycle: Lifecycle;
  /** base URL of /healthz and /metrics when WORKER_METRICS_PORT is set */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** replaces the table's adapter, e.g. for a test of the worker core alone */
  adapter?: Adapter;
  logDestination?: NodeJS.WritableStream;
}

export async function startConnectorWorker(
  env: Record<string, string | undefined> = process.env,
  options: WorkerOptions = {},
): Promise<RunningWorker> {
  const settings = loadWorkerConfig(env);
  const type = settings.CONNECTOR_TYPE;
  const runtime = createProcessRuntime({
    name: `connector-${type}`,
    metricsName: 'connector-worker',
    settings,
    broker: { connectionName: `connector-${type}` },
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  const { logger, registry, broker, lifecycle } = runtime;

  // provider clients and the job consumer
  const metrics = providerMetrics(registry);
  // outside production the provider sandbox on this machine is reachable; everything else
  // internal needs CONNECTOR_SSRF_ALLOW
  const allow = [
    settings.CONNECTOR_SSRF_ALLOW,
    settings.NODE_ENV === 'production' ? '' : '127.0.0.0/8,::1/128',
  ]
    .filter(Boolean)
    .join(',');
  const guard = new SsrfGuard(parseAllowList(allow, 'CONNECTOR_SSRF_ALLOW'));
  const provider = new GuardedHttp(
    settings.PROVIDER_HTTP_TIMEOUT_MS,
    guard,
    'idv-connector-worker',
  );
  const breakers = new VerifierBreakers(
    type,
    {
      timeoutMs: settings.BREAKER_TIMEOUT_MS,
      resetMs: settings.BREAKER_RESET_MS,
      rollingMs: settings.BREAKER_ROLLING_MS,
      volumeThreshold: settings.BREAKER_VOLUME_THRESHOLD,
      errorPercent: settings.BREAKER_ERROR_PERCENT,
    },
    metrics,
    logger,
  );
  const adapter: RunningAdapter = options.adapter
    ? { adapter: options.adapter, close: async () => {} }
    : startAdapter(type, { http: provider });
  const gates = new VerifierGates();
  const trailing = new TrailingCalls(logger);
  const box = createSecretBox(runtime.masterKey);
  const followUps = await startFollowUps(settings, {
    adapter,
    box,
    http: provider,
    broker,
    logger,
  });
  const handler = createJobHandler({
    type,
    adapter: adapter.adapter,
    box,
    http: provider,
    guard,
    certificates: new ClientCertificates(settings.CONNECTOR_CERT_DIR),
    breakers,
    gates,
    metrics,
    logger,
    trailing,
    followUps: followUps?.followUps,
    shares: new TenantShares(sharesOf(settings)),
  });
  const queue = connectorQueue(type, settings.CONNECTOR_QUEUE_PREFIX);
  const consumer = await broker.consume(queue, handler, {
    prefetch: prefetchOf(settings),
    // Jobs are transient and bounded by their deadline (per-message expiration), and the caller
    // waits on each one: a classic queue, without a quorum queue's replicated log and fsync per
    // job (measured in bench/results/history.md). A quorum queue left by an earlier release is
    // consumed as it is until an operator deletes it (docs/operating.md, "Upgrading").
    queueType: 'classic',
    formerQueueType: 'quorum',
  });

  // stop handlers: 0 take no new jobs and finish the running ones; 10 close clients (the
  // runtime closes the broker)
  lifecycle.onStop('consumer', 0, () => consumer.stop());
  lifecycle.onStop('follow-up consumer', 0, async () => followUps?.consumer.stop());
  lifecycle.onStop('adapter', 10, () => adapter.close());
  lifecycle.onStop('provider clients', 10, async () => {
    await trailing.drain(); // the calls adapters make after their answers use these clients
    gates.close();
    breakers.shutdown();
    await provider.close();
  });
  logger.info({ queue, prefetch: prefetchOf(settings) }, 'connector worker consuming');

  // serve: no API, /healthz and /metrics only, when WORKER_METRICS_PORT is set
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
    breakers,
    lifecycle,
    metricsUrl: served?.server.url,
    stop: () => lifecycle.stop(),
  };
}
