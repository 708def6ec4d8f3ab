// The broker topology of definitions.json, built from the list of queue workers (infra/workers.ts:
// the connector types and the capture checker) and the broker lib's own queue arguments, so the file the broker loads and what the services declare agree.
import {
  deadLetterQueueArguments,
  deadLetterQueueName,
  delayQueueArguments,
  workQueueArguments,
  type WorkQueue,
} from '@idv/broker';
import {
  FOLLOW_UP_WAIT_TIERS_MS,
  FOLLOW_UP_ANSWER_RETRY_MS,
  followUpAnswersWaitQueue,
  followUpQueue,
  followUpWaitQueue,
  RUN_WAIT_TIERS_MS,
  runWaitQueue,
  type ConnectorOf,
  type ConnectorType,
} from '@idv/contracts';
import { queueWorkers } from '../workers.ts';

const VHOST = '/';
const DLX = 'dlx';
const EVENTS = 'events';
const DISPATCHER = 'webhooks.dispatcher';
/** the docverify gateways' verification runs (sessions, async /verify): DOCVERIFY_RUNS_QUEUE */
const RUNS = 'docverify.runs';
/** connectors' final answers to pending kinds, for the gateways: DOCVERIFY_FOLLOWUPS_QUEUE */
const FOLLOWUPS = 'docverify.followups';
/** how long a redriven event waits in the retry queue before it returns to the dispatcher */
const RETRY_TTL_MS = 60_000;

const queue = (name: string, args: Record<string, string | number>) => ({
  name,
  vhost: VHOST,
  durable: true,
  auto_delete: false,
  arguments: args,
});
const binding = (source: string, destination: string, routingKey: string) => ({
  source,
  vhost: VHOST,
  destination,
  destination_type: 'queue',
  routing_key: routingKey,
  arguments: {},
});
const exchange = (name: string, type: 'direct' | 'topic') => ({
  name,
  vhost: VHOST,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});

/** A work queue, then its dead letters. */
function workQueue(spec: WorkQueue) {
  return [
    queue(spec.name, workQueueArguments(spec)),
    queue(deadLetterQueueName(spec.name), deadLetterQueueArguments(spec)),
  ];
}

/** The whole definitions file: compose's user, policies, queues, exchanges and bindings. */
export function rabbitDefinitions(connectors: readonly ConnectorOf<ConnectorType>[]): string {
  const followingUp = connectors
    .filter((c) => 'followUps' in c && c.followUps !== undefined)
    .map((c) => c.type);
  const work: WorkQueue[] = [
    // transient jobs and checks bounded by their deadline: classic (connector-worker start.ts says
    // why)
    ...queueWorkers(connectors).map((w) => ({
      name: w.queue,
      deadLetterExchange: DLX,
      type: 'classic' as const,
    })),
    { name: DISPATCHER, deadLetterExchange: DLX, type: 'classic' },
    { name: RUNS, deadLetterExchange: DLX, type: 'quorum' },
    { name: FOLLOWUPS, deadLetterExchange: DLX, type: 'quorum' },
    ...followingUp.map((type) => ({
      name: followUpQueue(type),
      deadLetterExchange: DLX,
      type: 'quorum' as const,
    })),
  ];
  const definitions = {
    rabbit_version: '3.13.0',
    users: [
      {
        name: 'idv',
        // compose only: the password is idv (README of infra/rabbitmq)
        password_hash: 'FpokN77agK4eZkBQUWVdVW8912782QSxYc6C81F3mAXGjyOx',
        hashing_algorithm: 'rabbit_password_hashing_sha256',
        tags: ['administrator'],
        limits: {},
      },
    ],
    vhosts: [{ name: VHOST }],
    permissions: [{ user: 'idv', vhost: VHOST, configure: '.*', write: '.*', read: '.*' }],
    topic_permissions: [],
    parameters: [],
    global_parameters: [],
    policies: [
      {
        vhost: VHOST,
        name: 'dead-letter-retention',
        pattern: '\\.dead$',
        'apply-to': 'queues',
        priority: 10,
        definition: { 'message-ttl': 604_800_000, 'max-length': 100_000 },
      },
      {
        vhost: VHOST,
        name: 'runs-delivery-limit',
        pattern: '^docverify\\.runs$',
        'apply-to': 'quorum_queues',
        priority: 10,
        definition: { 'delivery-limit': 5 },
      },
      {
        vhost: VHOST,
        name: 'followups-delivery-limit',
        pattern: '^(docverify\\.followups|idv\\.connector\\.[a-z_]+\\.followup)$',
        'apply-to': 'quorum_queues',
        priority: 10,
        definition: { 'delivery-limit': 5 },
      },
    ],
    queues: [
      ...work.flatMap(workQueue),
      queue(`${DISPATCHER}.retry`, {
        'x-queue-type': 'classic',
        'x-message-ttl': RETRY_TTL_MS,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': DISPATCHER,
      }),
      ...RUN_WAIT_TIERS_MS.map((tier) =>
        queue(runWaitQueue(RUNS, tier), delayQueueArguments(RUNS, tier)),
      ),
      queue(
        followUpAnswersWaitQueue(FOLLOWUPS),
        delayQueueArguments(FOLLOWUPS, FOLLOW_UP_ANSWER_RETRY_MS),
      ),
      ...followingUp.flatMap((type) =>
        FOLLOW_UP_WAIT_TIERS_MS.map((tier) =>
          queue(followUpWaitQueue(type, tier), delayQueueArguments(followUpQueue(type), tier)),
        ),
      ),
    ],
    exchanges: [exchange(DLX, 'direct'), exchange(EVENTS, 'topic')],
    bindings: [
      ...work.map((w) => binding(DLX, deadLetterQueueName(w.name), w.name)),
      binding(EVENTS, DISPATCHER, '#'),
    ],
  };
  return `${JSON.stringify(definitions, null, 2)}\n`;
}
