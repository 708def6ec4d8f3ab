// Composition root of a connector worker: config, logger, metrics, broker, breakers, the adapter of
// its type, and the consumer of idv.connector.<type>. No database: the job carries what it needs.
import { createBroker, type Broker } from '@idv/broker';
import { resolveMasterKey } from '@idv/config';
import { connectorQueue } from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import { Lifecycle } from '@idv/http';
import {
  createLogger,
  createMetricsRegistry,
  type Logger,
  type Registry,
} from '@idv/observability';
import { startAdapter } from './connectors/index.ts';
import type { Adapter, RunningAdapter } from './connectors/connector.ts';
import { loadWorkerConfig, prefetchOf, type ConnectorWorkerSettings } from './config.ts';
import { startFollowUps } from './jobs/followUpQueues.ts';
import { createJobHandler } from './jobs/handleJob.ts';
import { startMetricsServer } from './metricsServer.ts';
import { VerifierGates } from './provider/admission.ts';
import { VerifierBreakers } from './provider/breakers.ts';
import { ClientCertificates } from './provider/clientCertificates.ts';
import { createProviderHttp } from './provider/http.ts';
import { parseAllowList, SsrfGuard } from '@idv/netguard';
import { providerMetrics } from './provider/metrics.ts';

export interface RunningWorker {
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
  const logger = createLogger({
    service: `connector-${type}`,
    level: settings.LOG_LEVEL,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const master = resolveMasterKey(settings, (line) => logger.warn(line));
  const registry = createMetricsRegistry('connector-worker');
  const metrics = providerMetrics(registry);
  const broker = createBroker({
    url: settings.AMQP_URL,
    logger,
    registry,
    connectionName: `connector-${type}`,
  });
  // outside production the provider sandbox on this machine is reachable; everything else
  // internal needs CONNECTOR_SSRF_ALLOW
  const allow = [
    settings.CONNECTOR_SSRF_ALLOW,
    settings.NODE_ENV === 'production' ? '' : '127.0.0.0/8,::1/128',
  ]
    .filter(Boolean)
    .join(',');
  const guard = new SsrfGuard(parseAllowList(allow, 'CONNECTOR_SSRF_ALLOW'));
  const provider = createProviderHttp(settings.PROVIDER_HTTP_TIMEOUT_MS, guard);
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
    : startAdapter(type, { http: provider.http, lookup: guard.lookup });
  const gates = new VerifierGates();
  const box = createSecretBox(master.key);
  const followUps = await startFollowUps(settings, {
    adapter,
    box,
    http: provider.http,
    broker,
    logger,
  });
  const handler = createJobHandler({
    type,
    adapter: adapter.adapter,
    box,
    http: provider.http,
    guard,
    certificates: new ClientCertificates(settings.CONNECTOR_CERT_DIR),
    breakers,
    gates,
    metrics,
    logger,
    followUps: followUps?.followUps,
  });
  const queue = connectorQueue(type, settings.CONNECTOR_QUEUE_PREFIX);
  const lifecycle = new Lifecycle(logger);
  const consumer = await broker.consume(queue, handler, {
    prefetch: prefetchOf(settings),
    queueType: 'quorum',
  });
  const metricsServer =
    settings.WORKER_METRICS_PORT > 0
      ? await startMetricsServer(settings.WORKER_METRICS_PORT, registry, broker)
      : undefined;

  // 0: take no new jobs and finish the running ones; 10: close clients.
  lifecycle.onStop('consumer', 0, () => consumer.stop());
  lifecycle.onStop('follow-up consumer', 0, async () => followUps?.consumer.stop());
  lifecycle.onStop('metrics server', 0, async () => metricsServer?.close());
  lifecycle.onStop('broker', 10, () => broker.close());
  lifecycle.onStop('adapter', 10, () => adapter.close());
  lifecycle.onStop('provider clients', 10, async () => {
    gates.close();
    breakers.shutdown();
    provider.close();
  });
  logger.info({ queue, prefetch: prefetchOf(settings) }, 'connector worker consuming');

  return {
    settings,
    queue,
    logger,
    registry,
    broker,
    breakers,
    lifecycle,
    metricsUrl: metricsServer?.url,
    stop: () => lifecycle.stop(),
  };
}
