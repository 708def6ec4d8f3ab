// The follow-up queues of a worker whose type has followUps: its wait queues (one per fixed TTL,
// dead-lettering back) and the consumer of its follow-up queue. Types without follow-ups get nothing.
import type { Broker, Consumer } from '@idv/broker';
import {
  FOLLOW_UP_WAIT_TIERS_MS,
  FOLLOW_UP_TYPES,
  followUpQueue,
  followUpWaitQueue,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import type { Logger } from '@idv/observability';
import type { FollowUpAdapter, RunningAdapter } from '../connectors/connector.ts';
import { ProviderUnavailable } from '../outcomes.ts';
import type { GuardedHttp } from '@idv/netguard';
import type { ConnectorWorkerSettings } from '../config.ts';
import { FollowUps } from './followUps.ts';

const noFollowUp: FollowUpAdapter = {
  poll: () =>
    Promise.reject(new ProviderUnavailable('provider_error', 'this adapter cannot follow up')),
  fromCallback: () => {
    throw new ProviderUnavailable('provider_error', 'this adapter reads no callbacks');
  },
};

/** Follow-ups in flight per worker: each is a short poll, or a wait handed back to the broker. */
const FOLLOW_UP_PREFETCH = 64;

export interface FollowUpResources {
  adapter: RunningAdapter;
  box: SecretBox;
  http: GuardedHttp;
  broker: Broker;
  logger: Logger;
}

export async function startFollowUps(
  settings: ConnectorWorkerSettings,
  resources: FollowUpResources,
): Promise<{ followUps: FollowUps; consumer: Consumer } | undefined> {
  const type = settings.CONNECTOR_TYPE;
  if (!FOLLOW_UP_TYPES.includes(type)) return undefined;
  // a worker whose adapter was replaced (tests of the worker core) still owns the queues
  const followUp = resources.adapter.followUp ?? noFollowUp;
  const queue = followUpQueue(type, settings.CONNECTOR_QUEUE_PREFIX);
  const waitQueues = FOLLOW_UP_WAIT_TIERS_MS.map((tierMs) => ({
    tierMs,
    name: followUpWaitQueue(type, tierMs, settings.CONNECTOR_QUEUE_PREFIX),
  }));
  const followUps = new FollowUps({
    type,
    followUp,
    box: resources.box,
    http: resources.http,
    broker: resources.broker,
    waitQueues,
    settings: {
      firstPollMs: settings.FOLLOW_UP_FIRST_POLL_MS,
      maxPollMs: settings.FOLLOW_UP_MAX_POLL_MS,
      pollTimeoutMs: settings.PROVIDER_HTTP_TIMEOUT_MS,
    },
    logger: resources.logger.child({ component: 'follow-ups' }),
  });
  const consumer = await resources.broker.consume(queue, followUps.handler(), {
    prefetch: FOLLOW_UP_PREFETCH,
    queueType: 'quorum',
  });
  for (const wait of waitQueues)
    await resources.broker.declareDelayQueue(wait.name, queue, wait.tierMs);
  return { followUps, consumer };
}
