// A work-queue consumer's life: declared and consuming on every connection, resumed after a
// channel failure, stopped gracefully (cancel, wait for running handlers, close).
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@idv/observability';
import type { BrokerConnection } from './connection.ts';
import { handleDelivery, type MessageHandler } from './delivery.ts';
import { errorText } from './errors.ts';
import type { BrokerMetrics } from './metrics.ts';
import { declareWorkQueue, isPreconditionFailed, type WorkQueue } from './topology.ts';

export type { MessageContext, MessageHandler } from './delivery.ts';

export interface ConsumerDependencies {
  connection: BrokerConnection;
  logger: Logger;
  metrics: BrokerMetrics | undefined;
}

export interface Consumer {
  readonly queue: string;
  /** Cancels consuming, waits for running handlers, closes the channel. */
  stop(): Promise<void>;
}

/** After a channel fails on its own (connection still up), consuming resumes after this pause. */
const RESUME_DELAY_MS = 2000;

export class QueueConsumer implements Consumer {
  readonly queue: string;
  private live: { channel: ConfirmChannel; consumerTag: string | undefined } | undefined;
  private settingUp: Promise<void> = Promise.resolve();
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly log: Logger;

  constructor(
    private readonly deps: ConsumerDependencies,
    private readonly spec: WorkQueue,
    private readonly handler: MessageHandler,
    private readonly prefetch: number,
    /** extra topology, e.g. bindings to the events exchange */
    private readonly bind: (channel: Channel) => Promise<void> = async () => undefined,
  ) {
    this.queue = spec.name;
    this.log = deps.logger.child({ component: 'broker-consumer', queue: spec.name });
  }

  /**
   * Consumes now when connected and again after every reconnect. Rejects only when the broker is
   * up and refuses the setup (e.g. the queue exists with other arguments); when the broker is
   * down it resolves and consuming starts once connected.
   */
  async start(): Promise<void> {
    try {
      await this.deps.connection.addSetup(this.setup);
    } catch (err) {
      if (!this.deps.connection.isConnected()) {
        this.log.warn({ err: errorText(err) }, 'consumer waits for the broker');
        return;
      }
      await this.stop();
      throw err;
    }
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    this.deps.connection.removeSetup(this.setup);
    clearTimeout(this.resumeTimer);
    await this.settingUp;
    const live = this.live;
    if (live?.consumerTag) await live.channel.cancel(live.consumerTag).catch(() => undefined);
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    await live?.channel.close().catch(() => undefined);
    this.live = undefined;
  }

  /** One setup at a time: a reconnect and a resume after a channel failure may coincide. */
  private readonly setup = (): Promise<void> => {
    const next = this.settingUp.then(() => this.establish());
    this.settingUp = next.catch(() => undefined);
    return next;
  };

  private async establish(): Promise<void> {
    if (this.stopping || this.live) return;
    const channel = await this.deps.connection.openConfirmChannel(`consumer ${this.queue}`);
    const live: { channel: ConfirmChannel; consumerTag: string | undefined } = {
      channel,
      consumerTag: undefined,
    };
    this.live = live;
    channel.once('close', () => this.onChannelClosed(live));
    await declareWorkQueue(channel, await this.declaredSpec());
    await this.bind(channel);
    await channel.prefetch(this.prefetch);
    const reply = await channel.consume(this.queue, (m) => void this.deliver(channel, m));
    live.consumerTag = reply.consumerTag;
  }

  /**
   * The queue as it exists: with a `formerType`, a declaration on a throwaway channel finds out
   * whether an earlier release left the queue of that type (the refusal closes that channel only).
   */
  private async declaredSpec(): Promise<WorkQueue> {
    const { formerType, ...spec } = this.spec;
    if (!formerType) return spec;
    const probe = await this.deps.connection.openChannel(`probe ${this.queue}`);
    try {
      await declareWorkQueue(probe, spec);
      return spec;
    } catch (err) {
      if (!isPreconditionFailed(err)) throw err;
      this.log.warn(
        { type: formerType, wanted: spec.type },
        `queue ${this.queue} is still a ${formerType} queue: consumed as it is; delete it once drained and restart to make it ${spec.type}`,
      );
      return { ...spec, type: formerType };
    } finally {
      await probe.close().catch(() => undefined);
    }
  }

  private onChannelClosed(live: NonNullable<QueueConsumer['live']>): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this.stopping) return;
    // On a connection loss the reconnect re-runs the setup; this covers a channel that failed alone.
    this.resumeTimer = setTimeout(() => {
      if (!this.deps.connection.isConnected()) return;
      this.setup().catch((err: unknown) =>
        this.log.error({ err: errorText(err) }, 'could not resume consuming'),
      );
    }, RESUME_DELAY_MS);
  }

  private async deliver(channel: ConfirmChannel, message: ConsumeMessage | null): Promise<void> {
    if (!message) {
      // The broker cancelled us (queue deleted): reopen, which declares the queue again.
      this.log.warn('consumer cancelled by the broker');
      await channel.close().catch(() => undefined);
      return;
    }
    this.inFlight += 1;
    try {
      const outcome = await handleDelivery(channel, message, this.handler, this.log);
      this.deps.metrics?.messagesHandled.inc({ queue: this.queue, outcome });
    } catch (err) {
      // Reply or ack failed: the channel is gone and the broker redelivers the message.
      this.log.warn({ err: errorText(err) }, 'message left unacknowledged; it will be redelivered');
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }
}
