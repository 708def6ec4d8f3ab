// The broker a service holds: one connection, its publisher, RPC client, consumers and events.
import type { EventEnvelope } from '@idv/contracts';
import type { Logger, Registry } from '@idv/observability';
import { BrokerConnection, type BrokerStatus } from './connection.ts';
import { errorText } from './errors.ts';
import { EventBus, type EventHandler, type SubscribeOptions } from './events.ts';
import { brokerMetrics } from './metrics.ts';
import { ConfirmPublisher, type PublishOptions } from './publisher.ts';
import { RpcClient, type RequestOptions } from './rpc.ts';
import { declareDelayQueue, type QueueType } from './topology.ts';
import { QueueConsumer, type Consumer, type MessageHandler } from './worker.ts';

export interface BrokerOptions {
  url: string;
  logger: Logger;
  registry?: Registry;
  /** topic exchange of domain events; default 'events' */
  eventsExchange?: string;
  /**
   * Queues bound to every event ('#') that this broker declares on each connection before it
   * reports 'up', as `subscribeEvents` with default options declares them (classic, the shared
   * dead-letter exchange). Events published before their consumer first ran wait there instead of
   * being dropped unroutable. Default none.
   */
  keptEventQueues?: readonly string[];
  /** shared direct exchange for dead letters; default 'dlx' */
  deadLetterExchange?: string;
  /** default per-call RPC timeout, ms; default 10 000 */
  rpcTimeoutMs?: number;
  heartbeatSeconds?: number;
  /** reconnect backoff: first pause and cap, ms; default 500 doubling to 5000 */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  connectionName?: string;
}

export interface ConsumeOptions {
  /** unacked messages in flight for this consumer; default 10 */
  prefetch?: number;
  queueType?: QueueType;
  /** an earlier release's type of this queue, consumed as it is while it exists (WorkQueue) */
  formerQueueType?: QueueType;
  deadLetterExchange?: string;
}

export interface Broker {
  publish(
    exchange: string,
    routingKey: string,
    body: object,
    options?: PublishOptions,
  ): Promise<void>;
  publishEvent(envelope: EventEnvelope): Promise<void>;
  /** Declares (on every connection) a wait queue dead-lettering into `target` after `ttlMs`. */
  declareDelayQueue(name: string, target: string, ttlMs: number): Promise<void>;
  request(queue: string, body: object, options?: RequestOptions): Promise<unknown>;
  consume(queue: string, handler: MessageHandler, options?: ConsumeOptions): Promise<Consumer>;
  subscribeEvents(
    queue: string,
    bindingKeys: readonly string[],
    handler: EventHandler,
    options?: SubscribeOptions,
  ): Promise<Consumer>;
  /** 'up' when connected and set up; for /healthz */
  status(): BrokerStatus;
  waitUntilConnected(timeoutMs: number): Promise<void>;
  /** called on every change to 'up' or 'down'; returns the unsubscribe function */
  onStatusChange(listener: (status: BrokerStatus) => void): () => void;
  /** stops consumers (waiting for running handlers), then closes channels and the connection */
  close(): Promise<void>;
}

/** Returns at once and connects in the background, so a service starts while RabbitMQ is down. */
export function createBroker(options: BrokerOptions): Broker {
  const { logger } = options;
  const deadLetterExchange = options.deadLetterExchange ?? 'dlx';
  const connection = new BrokerConnection({
    url: options.url,
    logger,
    ...(options.heartbeatSeconds !== undefined
      ? { heartbeatSeconds: options.heartbeatSeconds }
      : {}),
    ...(options.reconnect ?? {}),
    ...(options.connectionName ? { connectionName: options.connectionName } : {}),
  });
  const metrics = brokerMetrics(options.registry);
  const publisher = new ConfirmPublisher(connection, logger);
  const rpc = new RpcClient(connection, logger, metrics, options.rpcTimeoutMs);
  const consumerDeps = { connection, logger, metrics };
  const events = new EventBus(
    connection,
    publisher,
    consumerDeps,
    options.eventsExchange ?? 'events',
    deadLetterExchange,
    options.keptEventQueues,
  );
  const consumers = new Set<Consumer>();
  const track = (consumer: Consumer): Consumer => {
    consumers.add(consumer);
    const stop = consumer.stop.bind(consumer);
    return {
      queue: consumer.queue,
      stop: async () => {
        consumers.delete(consumer);
        await stop();
      },
    };
  };

  events.start().catch((err: unknown) => logger.warn({ err: errorText(err) }, 'events setup'));
  connection.start();

  return {
    publish: (exchange, routingKey, body, publishOptions) =>
      publisher.publish(exchange, routingKey, body, publishOptions),
    publishEvent: (envelope) => events.publishEvent(envelope),
    async declareDelayQueue(name, target, ttlMs) {
      await connection.addSetup(async () => {
        const channel = await connection.openChannel('declare');
        try {
          await declareDelayQueue(channel, name, target, ttlMs);
        } finally {
          await channel.close().catch(() => undefined);
        }
      });
    },
    request: (queue, body, requestOptions) => rpc.request(queue, body, requestOptions),
    async consume(queue, handler, consumeOptions = {}) {
      const consumer = new QueueConsumer(
        consumerDeps,
        {
          name: queue,
          deadLetterExchange: consumeOptions.deadLetterExchange ?? deadLetterExchange,
          type: consumeOptions.queueType ?? 'classic',
          ...(consumeOptions.formerQueueType ? { formerType: consumeOptions.formerQueueType } : {}),
        },
        handler,
        consumeOptions.prefetch ?? 10,
      );
      await consumer.start();
      return track(consumer);
    },
    async subscribeEvents(queue, bindingKeys, handler, subscribeOptions) {
      return track(await events.subscribeEvents(queue, bindingKeys, handler, subscribeOptions));
    },
    status: () => connection.status(),
    waitUntilConnected: (timeoutMs) => connection.waitUntilConnected(timeoutMs),
    onStatusChange(listener) {
      const up = (): void => listener('up');
      const down = (): void => listener('down');
      connection.on('connected', up);
      connection.on('disconnected', down);
      return () => {
        connection.off('connected', up);
        connection.off('disconnected', down);
      };
    },
    async close() {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      consumers.clear();
      await Promise.all([rpc.close(), publisher.close()]);
      await connection.close();
    },
  };
}
