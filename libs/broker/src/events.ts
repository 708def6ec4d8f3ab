// Domain events: validated envelopes on a durable topic exchange, routed by event name.
import { EventEnvelope, validate } from '@idv/contracts';
import type { BrokerConnection } from './connection.ts';
import { InvalidEventError, PoisonMessageError } from './errors.ts';
import type { ConfirmPublisher } from './publisher.ts';
import {
  ALL_EVENTS,
  bindKeys,
  declareEventsExchange,
  declareWorkQueue,
  type QueueType,
  type WorkQueue,
} from './topology.ts';
import { QueueConsumer, type ConsumerDependencies, type MessageContext } from './worker.ts';

export type EventHandler = (event: EventEnvelope, context: MessageContext) => unknown;

export interface SubscribeOptions {
  prefetch?: number;
  queueType?: QueueType;
  deadLetterExchange?: string;
}

export class EventBus {
  constructor(
    private readonly connection: BrokerConnection,
    private readonly publisher: ConfirmPublisher,
    private readonly consumers: ConsumerDependencies,
    private readonly exchange: string,
    private readonly deadLetterExchange: string,
    /** queues bound to every event, declared before anything is published (see BrokerOptions) */
    private readonly keptQueues: readonly string[] = [],
  ) {}

  /**
   * Declares the exchange, and the queues that keep every event, on every connection before the
   * broker reports 'up': publishing never hits a missing exchange, and an event published before
   * its consumer ever ran waits in that consumer's queue instead of being dropped unroutable.
   */
  async start(): Promise<void> {
    await this.connection.addSetup(this.declare);
  }

  /**
   * Publishes with routing key = eventName once the broker confirmed it. An event no queue is
   * bound for is not an error (nobody subscribed yet); it is logged by the publisher.
   */
  async publishEvent(envelope: EventEnvelope): Promise<void> {
    const checked = validate(EventEnvelope, envelope);
    if (!checked.ok) throw new InvalidEventError(checked.issues);
    await this.publisher.publish(this.exchange, checked.value.eventName, checked.value, {
      messageId: checked.value.eventId,
      type: checked.value.eventName,
      allowUnroutable: true,
    });
  }

  /**
   * A durable queue bound to the exchange for each key ('VERIFICATION_*' style topic patterns
   * allowed), acked after the handler; envelopes that fail the contract go to the dead letters.
   */
  async subscribeEvents(
    queue: string,
    bindingKeys: readonly string[],
    handler: EventHandler,
    options: SubscribeOptions = {},
  ): Promise<QueueConsumer> {
    const consumer = new QueueConsumer(
      this.consumers,
      this.workQueue(queue, options),
      (body, context) => {
        const checked = validate(EventEnvelope, body);
        if (!checked.ok)
          throw new PoisonMessageError(new InvalidEventError(checked.issues).message);
        return handler(checked.value, context);
      },
      options.prefetch ?? 10,
      async (channel) => {
        await declareEventsExchange(channel, this.exchange);
        await bindKeys(channel, queue, this.exchange, bindingKeys);
      },
    );
    await consumer.start();
    return consumer;
  }

  /** One spec for subscribers and for kept queues, so both declare the same arguments. */
  private workQueue(name: string, options: SubscribeOptions): WorkQueue {
    return {
      name,
      deadLetterExchange: options.deadLetterExchange ?? this.deadLetterExchange,
      type: options.queueType ?? 'classic',
    };
  }

  private readonly declare = async (): Promise<void> => {
    const channel = await this.connection.openChannel('events topology');
    try {
      await declareEventsExchange(channel, this.exchange);
      for (const name of this.keptQueues) {
        // as subscribeEvents with default options declares it: other arguments would be refused
        await declareWorkQueue(channel, this.workQueue(name, {}));
        await bindKeys(channel, name, this.exchange, [ALL_EVENTS]);
      }
    } finally {
      await channel.close().catch(() => undefined);
    }
  };
}
