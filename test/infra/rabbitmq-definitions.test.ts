// infra/rabbitmq/definitions.json against the services: the topology functions give the same
// arguments, and queues the real services declared at start accept a redeclaration with the
// file's arguments (RabbitMQ refuses any difference with PRECONDITION_FAILED). The services run
// on unique queue names, so the shared broker's real queues are never touched.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import amqp from 'amqplib';
import { expect } from 'chai';
import {
  deadLetterQueueArguments,
  deadLetterQueueName,
  workQueueArguments,
  type QueueType,
} from '@idv/broker';
import {
  CONNECTOR_TYPES,
  FOLLOW_UP_TYPES,
  FOLLOW_UP_WAIT_TIERS_MS,
  RUN_WAIT_TIERS_MS,
  runWaitQueue,
} from '@idv/contracts';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { platformMigrations } from '@idv/platform';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../services/connector-worker/src/start.ts';
import { startWebhookDispatcher } from '../../services/webhook-dispatcher/src/start.ts';
import { webhooksMigrations } from '../../services/webhooks-gateway/src/migrations.ts';
import { startWebhooksGateway } from '../../services/webhooks-gateway/src/start.ts';
import { startCaptureChecker } from '../../services/capture-checker/src/start.ts';
import { docverifyMigrations } from '../../services/docverify-gateway/src/migrations.ts';
import { startDocverifyGateway } from '../../services/docverify-gateway/src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';

interface Queue {
  name: string;
  durable: boolean;
  arguments: Record<string, unknown>;
}
interface Binding {
  source: string;
  destination: string;
  destination_type: string;
  routing_key: string;
}
interface Definitions {
  queues: Queue[];
  exchanges: { name: string; type: string; durable: boolean }[];
  bindings: Binding[];
  policies: {
    name: string;
    pattern: string;
    'apply-to': string;
    definition: Record<string, unknown>;
  }[];
}

const definitions = JSON.parse(
  readFileSync('infra/rabbitmq/definitions.json', 'utf8'),
) as Definitions;
const queue = (name: string) => definitions.queues.find((q) => q.name === name);
const CONNECTOR_PREFIX = 'idv.connector';
const EVENTS_QUEUE = 'webhooks.dispatcher';
const RUNS_QUEUE = 'docverify.runs';
const FOLLOWUPS_QUEUE = 'docverify.followups';
const CAPTURE_QUEUE = 'capture.checks';
const followUpQueueOf = (type: string, prefix = CONNECTOR_PREFIX) => `${prefix}.${type}.followup`;
/** the wait queues of a follow-up queue, one per TTL tier */
const waitQueuesOf = (followUps: string) =>
  FOLLOW_UP_WAIT_TIERS_MS.map((tier) => ({ tier, name: `${followUps}.wait.${tier / 1000}s` }));

/** The work queues the services declare at start, with the queue type each one asks for. */
const WORK_QUEUES: { name: string; type: QueueType }[] = [
  ...CONNECTOR_TYPES.map((t) => ({ name: `${CONNECTOR_PREFIX}.${t}`, type: 'classic' as const })),
  { name: CAPTURE_QUEUE, type: 'classic' },
  { name: EVENTS_QUEUE, type: 'classic' },
  { name: RUNS_QUEUE, type: 'quorum' },
  { name: FOLLOWUPS_QUEUE, type: 'quorum' },
  ...FOLLOW_UP_TYPES.map((t) => ({ name: followUpQueueOf(t), type: 'quorum' as const })),
];

/** The delivery-limit policy of each quorum work queue. */
const DELIVERY_LIMIT = (queue: string) =>
  queue === RUNS_QUEUE ? 'runs-delivery-limit' : 'followups-delivery-limit';

describe('RabbitMQ definitions file', () => {
  it('holds the exchanges the broker lib declares: direct dlx and topic events', () => {
    expect(definitions.exchanges.map((e) => [e.name, e.type, e.durable])).to.have.deep.members([
      ['dlx', 'direct', true],
      ['events', 'topic', true],
    ]);
  });

  it('gives every work queue the arguments workQueueArguments builds, and its dead-letter queue', () => {
    for (const { name, type } of WORK_QUEUES) {
      const spec = { name, deadLetterExchange: 'dlx', type };
      expect(queue(name)?.arguments, name).to.deep.equal(workQueueArguments(spec));
      expect(queue(name)?.durable, name).to.equal(true);
      const dead = deadLetterQueueName(name);
      expect(queue(dead)?.arguments, dead).to.deep.equal(deadLetterQueueArguments(spec));
      expect(definitions.bindings, dead).to.deep.include({
        source: 'dlx',
        vhost: '/',
        destination: dead,
        destination_type: 'queue',
        routing_key: name,
        arguments: {},
      });
    }
  });

  it('has one classic work queue per connector type, under no delivery-limit policy', () => {
    for (const type of CONNECTOR_TYPES) {
      const name = `${CONNECTOR_PREFIX}.${type}`;
      expect(queue(name)?.arguments['x-queue-type'], type).to.equal('classic');
      // a job's expiration, its deadline, bounds its redeliveries
      expect(definitions.policies.filter((p) => new RegExp(p.pattern).test(name))).to.deep.equal(
        [],
      );
    }
  });

  it('binds the dispatcher to every event and redrives its retry queue into it', () => {
    expect(definitions.bindings).to.deep.include({
      source: 'events',
      vhost: '/',
      destination: EVENTS_QUEUE,
      destination_type: 'queue',
      routing_key: '#',
      arguments: {},
    });
    const retry = queue(`${EVENTS_QUEUE}.retry`);
    expect(retry?.arguments).to.include({
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': EVENTS_QUEUE,
    });
    expect(retry?.arguments['x-message-ttl']).to.be.a('number').above(0);
  });

  it("puts the gateways' early follow-up answers to wait in a queue that dead-letters back", () => {
    expect(queue(`${FOLLOWUPS_QUEUE}.wait`)?.arguments).to.include({
      'x-queue-type': 'classic',
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': FOLLOWUPS_QUEUE,
    });
  });

  it('parks verification runs (fair share, retries) in wait queues that dead-letter back after their TTL', () => {
    for (const tier of RUN_WAIT_TIERS_MS) {
      const name = runWaitQueue(RUNS_QUEUE, tier);
      expect(queue(name)?.arguments, name).to.deep.equal({
        'x-queue-type': 'classic',
        'x-message-ttl': tier,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': RUNS_QUEUE,
      });
    }
  });

  it('waits follow-ups of each type with follow-ups in queues that dead-letter back after their TTL', () => {
    expect(FOLLOW_UP_TYPES).to.include('agent_review');
    for (const type of FOLLOW_UP_TYPES) {
      for (const { tier, name } of waitQueuesOf(followUpQueueOf(type))) {
        expect(queue(name)?.arguments, name).to.deep.equal({
          'x-queue-type': 'classic',
          'x-message-ttl': tier,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': followUpQueueOf(type),
        });
      }
    }
  });

  it('declares nothing else: every queue is a work queue, its dead letters or a retry or wait queue', () => {
    const known = [
      ...WORK_QUEUES.flatMap((q) => [q.name, deadLetterQueueName(q.name)]),
      `${EVENTS_QUEUE}.retry`,
      ...FOLLOW_UP_TYPES.flatMap((t) => waitQueuesOf(followUpQueueOf(t)).map((w) => w.name)),
      `${FOLLOWUPS_QUEUE}.wait`,
      ...RUN_WAIT_TIERS_MS.map((tier) => runWaitQueue(RUNS_QUEUE, tier)),
    ];
    expect(definitions.queues.map((q) => q.name)).to.have.members(known);
  });

  it('limits deliveries on every quorum work queue and retains dead letters, one policy per queue', () => {
    const matching = (name: string) =>
      definitions.policies.filter((p) => new RegExp(p.pattern).test(name));
    for (const { name, type } of WORK_QUEUES.filter((q) => q.type === 'quorum')) {
      const policies = matching(name);
      expect(
        policies.map((p) => p.name),
        name,
      ).to.deep.equal([DELIVERY_LIMIT(name)]);
      expect(policies[0]?.['apply-to']).to.equal(`${type}_queues`);
      expect(policies[0]?.definition['delivery-limit']).to.be.a('number').above(0);
      expect(matching(deadLetterQueueName(name)).map((p) => p.name)).to.deep.equal([
        'dead-letter-retention',
      ]);
    }
  });
});

describe('RabbitMQ definitions file against the running services', function () {
  this.timeout(60_000);
  const suffix = randomBytes(4).toString('hex');
  const prefix = `test-${suffix}.${CONNECTOR_PREFIX}`;
  const eventsQueue = `test-${suffix}.${EVENTS_QUEUE}`;
  // the dispatcher's queue as a publishing service declares it before any dispatcher ran
  const publishedQueue = `test-${suffix}.published.${EVENTS_QUEUE}`;
  const runsQueue = `test-${suffix}.${RUNS_QUEUE}`;
  const followUpsQueue = `test-${suffix}.${FOLLOWUPS_QUEUE}`;
  const captureQueue = `test-${suffix}.${CAPTURE_QUEUE}`;
  const workers: RunningWorker[] = [];
  let database: TestDatabase | undefined;
  let stopDispatcher: (() => Promise<void>) | undefined;
  let stopGateway: (() => Promise<void>) | undefined;
  let stopChecker: (() => Promise<void>) | undefined;
  let stopWebhooksGateway: (() => Promise<void>) | undefined;
  let amqpUrl: string;

  before(async () => {
    amqpUrl = await testAmqpUrl();
    const env = {
      AMQP_URL: amqpUrl,
      MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
    };
    for (const type of CONNECTOR_TYPES) {
      // the OCR engine is not what is under test; any adapter declares the same queue
      const adapter = async () => ({ status: 'verified', result: {} }) as never;
      workers.push(await startConnectorWorker({ ...env, CONNECTOR_TYPE: type }, { adapter }));
    }
    database = await createTestDatabase([
      platformMigrations,
      webhooksMigrations,
      docverifyMigrations,
    ]);
    const dispatcher = await startWebhookDispatcher({
      ...env,
      DATABASE_URL: database.url,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: eventsQueue,
    });
    stopDispatcher = () => dispatcher.stop();
    const webhooksGateway = await startWebhooksGateway({
      ...env,
      DATABASE_URL: database.url,
      WEBHOOKS_PORT: '0',
      WEBHOOK_EVENTS_QUEUE: publishedQueue,
      DECLARE_WEBHOOK_EVENTS_QUEUE: 'true',
    });
    stopWebhooksGateway = () => webhooksGateway.stop();
    const gateway = await startDocverifyGateway({
      ...env,
      DATABASE_URL: database.url,
      DOCVERIFY_PORT: '0',
      DOCVERIFY_RUNS_QUEUE: runsQueue,
      DOCVERIFY_FOLLOWUPS_QUEUE: followUpsQueue,
    });
    stopGateway = () => gateway.stop();
    const checker = await startCaptureChecker({ ...env, CAPTURE_CHECK_QUEUE: captureQueue });
    stopChecker = () => checker.stop();
  });

  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await stopDispatcher?.();
    await stopGateway?.();
    await stopChecker?.();
    await stopWebhooksGateway?.();
    await database?.drop();
    await deleteQueues(amqpUrl, [
      ...workers.map((w) => w.queue),
      eventsQueue,
      publishedQueue,
      runsQueue,
      ...RUN_WAIT_TIERS_MS.map((tier) => runWaitQueue(runsQueue, tier)),
      followUpsQueue,
      `${followUpsQueue}.wait`,
      captureQueue,
      ...FOLLOW_UP_TYPES.flatMap((t) => [
        followUpQueueOf(t, prefix),
        ...waitQueuesOf(followUpQueueOf(t, prefix)).map((w) => w.name),
      ]),
    ]);
  });

  /** Redeclares `actual` with the file's arguments of `canonical`: the broker compares them. */
  async function redeclareAs(
    actual: string,
    canonical: string,
    /** further names the file's arguments hold and their test counterparts */
    renames: Record<string, string> = {},
  ): Promise<string | undefined> {
    const connection = await amqp.connect(amqpUrl);
    try {
      const until = Date.now() + 15_000;
      for (;;) {
        const probe = await connection.createChannel();
        probe.on('error', () => undefined);
        const exists = await probe.checkQueue(actual).then(
          () => true,
          () => false,
        );
        if (exists) {
          await probe.close();
          break;
        }
        if (Date.now() > until) return `${actual} was never declared`;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      const spec = queue(canonical)!;
      // arguments naming the queue itself (the dead-letter routing key) carry the test's name
      const args = Object.fromEntries(
        Object.entries(spec.arguments).map(([k, v]) => [
          k,
          v === canonical ? actual : typeof v === 'string' ? (renames[v] ?? v) : v,
        ]),
      );
      return await channel.assertQueue(actual, { durable: spec.durable, arguments: args }).then(
        () => undefined,
        (err: Error) => `${actual} differs from ${canonical} in the definitions: ${err.message}`,
      );
    } finally {
      await connection.close().catch(() => undefined);
    }
  }

  it('each connector worker declared its queue and dead letters exactly as the file does', async () => {
    const problems: string[] = [];
    for (const type of CONNECTOR_TYPES) {
      const name = `${CONNECTOR_PREFIX}.${type}`;
      const declared = `${prefix}.${type}`;
      const work = await redeclareAs(declared, name);
      const dead = await redeclareAs(deadLetterQueueName(declared), deadLetterQueueName(name));
      problems.push(...[work, dead].filter((p): p is string => p !== undefined));
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('workers with follow-ups declared their follow-up and wait queues exactly as the file does', async () => {
    const problems: string[] = [];
    for (const type of FOLLOW_UP_TYPES) {
      const [name, declared] = [followUpQueueOf(type), followUpQueueOf(type, prefix)];
      problems.push(
        ...[
          await redeclareAs(declared, name),
          await redeclareAs(deadLetterQueueName(declared), deadLetterQueueName(name)),
        ].filter((p): p is string => p !== undefined),
      );
      const waits = waitQueuesOf(name);
      for (const [i, wait] of waitQueuesOf(declared).entries()) {
        const problem = await redeclareAs(wait.name, waits[i]!.name, { [name]: declared });
        if (problem) problems.push(problem);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('the docverify gateway declared its follow-ups queue and dead letters exactly as the file does', async () => {
    const problems = [
      await redeclareAs(followUpsQueue, FOLLOWUPS_QUEUE),
      await redeclareAs(deadLetterQueueName(followUpsQueue), deadLetterQueueName(FOLLOWUPS_QUEUE)),
      await redeclareAs(`${followUpsQueue}.wait`, `${FOLLOWUPS_QUEUE}.wait`, {
        [FOLLOWUPS_QUEUE]: followUpsQueue,
      }),
    ].filter((p) => p !== undefined);
    expect(problems).to.deep.equal([]);
  });

  it('the docverify gateway declared its runs queue, dead letters and wait queues exactly as the file does', async () => {
    const problems = [
      await redeclareAs(runsQueue, RUNS_QUEUE),
      await redeclareAs(deadLetterQueueName(runsQueue), deadLetterQueueName(RUNS_QUEUE)),
      ...(await Promise.all(
        RUN_WAIT_TIERS_MS.map((tier) =>
          redeclareAs(runWaitQueue(runsQueue, tier), runWaitQueue(RUNS_QUEUE, tier), {
            [RUNS_QUEUE]: runsQueue,
          }),
        ),
      )),
    ].filter((p) => p !== undefined);
    expect(problems).to.deep.equal([]);
  });

  it('the capture checker declared its queue and dead letters exactly as the file does', async () => {
    const problems = [
      await redeclareAs(captureQueue, CAPTURE_QUEUE),
      await redeclareAs(deadLetterQueueName(captureQueue), deadLetterQueueName(CAPTURE_QUEUE)),
    ].filter((p) => p !== undefined);
    expect(problems).to.deep.equal([]);
  });

  it('the webhook dispatcher declared its events queue and dead letters exactly as the file does', async () => {
    const problems = [
      await redeclareAs(eventsQueue, EVENTS_QUEUE),
      await redeclareAs(deadLetterQueueName(eventsQueue), deadLetterQueueName(EVENTS_QUEUE)),
    ].filter((p) => p !== undefined);
    expect(problems).to.deep.equal([]);
  });

  it('a publishing service (the webhooks gateway) declared the same events queue as the file', async () => {
    const problems = [
      await redeclareAs(publishedQueue, EVENTS_QUEUE),
      await redeclareAs(deadLetterQueueName(publishedQueue), deadLetterQueueName(EVENTS_QUEUE)),
    ].filter((p) => p !== undefined);
    expect(problems).to.deep.equal([]);
  });
});
