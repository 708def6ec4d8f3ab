// The platform with what a /verify needs end to end: the provider sandbox, one connector worker,
// a verifier and a verification config `kyc` for one kind, and optionally the webhook dispatcher
// with a local sink, each on unique queues.
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { testAmqpUrl } from '@idv/testing/testServers';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../../services/provider-sandbox/src/start.ts';
import {
  startWebhookDispatcher,
  type StartedDispatcher,
} from '../../../services/webhook-dispatcher/src/start.ts';
import { startSink, type Sink } from './webhookSink.ts';
import { waitForQueue } from './dispatcherWorld.ts';
import { deleteQueues } from './amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from './platform.ts';

export interface VerifyWorldOptions {
  /** names the queues, e.g. 'faults.gwkill' */
  name: string;
  connectorType?: string;
  kind?: string;
  /** where the services and the worker reach RabbitMQ (a proxy, say) */
  amqpUrl?: string;
  platform?: Record<string, string>;
  overridesFor?: (databaseUrl: string) => Record<string, string>;
  /** also run the webhook dispatcher, delivering to a local sink */
  dispatcher?: boolean;
  /** further settings of the connector worker */
  workerEnv?: Record<string, string>;
}

export interface VerifyWorld {
  platform: RunningPlatform;
  sandbox: RunningSandbox;
  worker: RunningWorker;
  dispatcher: StartedDispatcher | undefined;
  sink: Sink | undefined;
  /** a client of the docverify or webhooks service with one of the seeded licences */
  client(service: 'docverify' | 'webhooks', licence: keyof RunningPlatform['licences']): IdvClient;
  /** the /verify body for the world's config and kind */
  verifyBody(document?: Record<string, string>): object;
  /** subscribes a webhook of the community to `eventNames`, delivering to `${sink.url}${path}` */
  subscribe(path: string, eventNames: string[]): Promise<{ _id: string; secret: string }>;
  /** eventIds the sink received at `path`, in order (with repeats) */
  delivered(path: string): string[];
  /** the verificationIds named by the verification events the sink received at `path` */
  verificationEvents(path: string): string[];
  stop(): Promise<void>;
}

const face = Buffer.from('FACE:testy').toString('base64');

export async function startVerifyWorld(options: VerifyWorldOptions): Promise<VerifyWorld> {
  const suffix = randomBytes(4).toString('hex');
  const prefix = `test.${options.name}.${suffix}`;
  const eventsQueue = `test.${options.name}.events.${suffix}`;
  const connectorType = options.connectorType ?? 'face_compare_b';
  const kind = options.kind ?? 'face_compare';
  const sandbox = await startSandbox(0);
  const platform = await startPlatform(
    {
      CONNECTOR_QUEUE_PREFIX: prefix,
      VERIFY_DEADLINE_MS: '5000',
      ...(options.amqpUrl ? { AMQP_URL: options.amqpUrl } : {}),
      ...options.platform,
    },
    options.overridesFor,
  );
  const worker = await startConnectorWorker({
    AMQP_URL: platform.env.AMQP_URL!,
    MASTER_KEY: platform.env.MASTER_KEY!,
    LOG_LEVEL: 'silent',
    CONNECTOR_QUEUE_PREFIX: prefix,
    CONNECTOR_TYPE: connectorType,
    ...options.workerEnv,
  });
  await worker.broker.waitUntilConnected(15_000);
  let dispatcher: StartedDispatcher | undefined;
  let sink: Sink | undefined;
  if (options.dispatcher) {
    sink = await startSink();
    dispatcher = await startWebhookDispatcher({
      ...platform.env,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
      WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
      WEBHOOK_POLL_MS: '100',
    });
    await waitForQueue(eventsQueue);
  }
  const client: VerifyWorld['client'] = (service, licence) =>
    new IdvClient({
      baseUrl: platform.services[service].url,
      licenseKey: platform.licences[licence],
    });
  const { community } = platform;
  const admin = client('docverify', 'service');
  const verifier = await admin.request('PUT', `/verifier/community/${community.id}`, {
    name: 'provider',
    tag: 'provider',
    type: connectorType,
    connectorUrl: sandbox.url,
    config: { apiKey: 'sandbox-key' },
  });
  const config = await admin.request('PUT', `/verificationConfig/community/${community.id}`, {
    tenantId: community.tenantId,
    tag: 'kyc',
    [kind]: [{ verifier: 'provider' }],
  });
  if (verifier.status !== 200 || config.status !== 200)
    throw new Error(`verifier ${verifier.status}, config ${config.status}`);

  return {
    platform,
    sandbox,
    worker,
    dispatcher,
    sink,
    client,
    verifyBody: (document = { id: 'doc-1', type: 'dl', image1: face, image2: face }) => ({
      dvcID: 'kyc',
      verifications: [kind],
      document,
    }),
    async subscribe(path, eventNames) {
      const res = await client('webhooks', 'service').request<{ _id: string; secret: string }>(
        'PUT',
        `/tenant/${community.tenantId}/community/${community.id}/webhook`,
        {
          name: `callbacks ${path}`,
          eventNames,
          api: { type: 'POST', url: `${sink!.url}${path}`, authType: 'none' },
          successCodes: [200],
        },
      );
      if (res.status !== 200) throw new Error(`webhook not created: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    delivered: (path) =>
      sink!.received
        .filter((r) => r.path === path)
        .map((r) => (JSON.parse(r.body) as { eventId: string }).eventId),
    verificationEvents: (path) =>
      sink!.received
        .filter((r) => r.path === path)
        .map(
          (r) => (JSON.parse(r.body) as { data: { verificationId: string } }).data.verificationId,
        ),
    async stop() {
      await dispatcher?.stop();
      await worker.stop();
      await sink?.close();
      await platform.stop();
      await sandbox.close();
      await deleteQueues(await testAmqpUrl(), [
        `${prefix}.${connectorType}`,
        `${prefix}.${connectorType}.followup`,
        ...[1, 10, 60].map((s) => `${prefix}.${connectorType}.followup.wait.${s}s`),
        eventsQueue,
      ]);
    },
  };
}
