// Test harness: a provider sandbox, connector workers started in-process on unique queues, and a
// gateway-side broker that sends sealed ConnectorJobs through RPC like the docverify gateway does.
import { randomBytes, randomUUID } from 'node:crypto';
import { createBroker, type Broker } from '@idv/broker';
import {
  CONNECTOR_TYPES,
  connectorQueue,
  ConnectorReply,
  validate,
  type ConnectorType,
  type VerificationKind,
  type VerifierLimits,
  workerQueues,
} from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import { startSandbox, type RunningSandbox } from '../../provider-sandbox/src/start.ts';
import { startConnectorWorker, type RunningWorker } from '../src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';

export interface Ask {
  type: ConnectorType;
  kind: VerificationKind;
  config?: Record<string, unknown>;
  document: Record<string, unknown>;
  connectorUrl?: string;
  verifierId?: string;
  /** the community of the job's context, 'c-1' unless given */
  communityId?: string;
  /** the tenant of the job's context, 't-1' unless given */
  tenantId?: string;
  returnRawData?: boolean;
  timeoutMs?: number;
  limits?: VerifierLimits;
}

export interface Harness {
  sandbox: RunningSandbox;
  env: Record<string, string>;
  broker: Broker;
  workers: RunningWorker[];
  startWorker(type: ConnectorType, extra?: Record<string, string>): Promise<RunningWorker>;
  ask(request: Ask): Promise<ConnectorReply & { raw?: unknown }>;
  /** a job as the gateway sends it, sealed */
  job(request: Ask): { jobId: string; body: Record<string, unknown> };
  stop(): Promise<void>;
}

export async function startHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const sandbox = await startSandbox(0);
  const masterKey = randomBytes(32);
  const env: Record<string, string> = {
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: masterKey.toString('base64'),
    LOG_LEVEL: 'silent',
    CONNECTOR_QUEUE_PREFIX: `test.connector.${randomBytes(4).toString('hex')}`,
    ...extraEnv,
  };
  const box = createSecretBox(masterKey);
  const broker = createBroker({
    url: env.AMQP_URL ?? '',
    logger: createLogger({ service: 'test-gateway', level: 'silent' }),
  });
  await broker.waitUntilConnected(10_000);
  const workers: RunningWorker[] = [];

  const job = (r: Ask) => {
    const jobId = randomUUID();
    const sealed = box.seal(
      JSON.stringify({ config: r.config ?? {}, document: r.document }),
      jobId,
    );
    const body = {
      jobId,
      kind: r.kind,
      verifier: {
        id: r.verifierId ?? `verifier-${r.type}`,
        tag: `tag-${r.type}`,
        type: r.type,
        connectorUrl: r.connectorUrl ?? sandbox.url,
        ...(r.limits ? { limits: r.limits } : {}),
      },
      sealed,
      options: {
        returnRawData: r.returnRawData ?? false,
        debug: false,
      },
      deadline: Date.now() + (r.timeoutMs ?? 8000),
      sentAt: Date.now(),
      context: { tenantId: r.tenantId ?? 't-1', communityId: r.communityId ?? 'c-1', dvcID: 'kyc' },
    };
    return { jobId, body };
  };

  return {
    sandbox,
    env,
    broker,
    workers,
    async startWorker(type, extra = {}) {
      const worker = await startConnectorWorker({ ...env, CONNECTOR_TYPE: type, ...extra });
      await worker.broker.waitUntilConnected(10_000);
      workers.push(worker);
      return worker;
    },
    job,
    async ask(r) {
      const { jobId, body } = job(r);
      const queue = connectorQueue(r.type, env.CONNECTOR_QUEUE_PREFIX);
      const answer = await broker.request(queue, body, { timeoutMs: r.timeoutMs ?? 8000 });
      const checked = validate(ConnectorReply, answer);
      if (!checked.ok) throw new Error(`reply off contract: ${JSON.stringify(checked.issues)}`);
      const reply = checked.value;
      if (reply.jobId !== jobId) throw new Error('reply for another job');
      return reply.rawSealed
        ? { ...reply, raw: JSON.parse(box.open(reply.rawSealed, jobId)) as unknown }
        : reply;
    },
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
      await broker.close();
      await sandbox.close();
      // every type's queues under the harness's own prefix: workers started as child processes too
      const queues = CONNECTOR_TYPES.flatMap((t) => workerQueues(t, env.CONNECTOR_QUEUE_PREFIX));
      await deleteQueues(env.AMQP_URL ?? '', queues);
    },
  };
}
