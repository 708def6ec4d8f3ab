// The one AMQP connection of the process: connects in the background, reconnects with backoff and
// re-runs the registered setups (topology, consumers) on every new connection.
import { EventEmitter } from 'node:events';
import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import type { Logger } from '@idv/observability';
import { Backoff, Pause } from './backoff.ts';
import { dial, type DialOptions } from './dial.ts';
import { BrokerUnavailableError, errorText } from './errors.ts';

export type BrokerStatus = 'up' | 'down' | 'closed';

/** Runs on every new connection, before the status turns 'up'. */
export type ConnectionSetup = () => Promise<void>;

export interface ConnectionOptions extends DialOptions {
  logger: Logger;
  /** reconnect backoff: first pause, doubling up to the cap; default 500 to 5000 ms */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

interface ConnectionEvents {
  connected: [];
  disconnected: [];
}

export class BrokerConnection extends EventEmitter<ConnectionEvents> {
  private model: ChannelModel | undefined;
  private state: BrokerStatus = 'down';
  private blocked = false;
  private readonly setups = new Set<ConnectionSetup>();
  private loop: Promise<void> | undefined;
  private readonly pause = new Pause();
  private readonly log: Logger;

  constructor(private readonly options: ConnectionOptions) {
    super();
    this.log = options.logger.child({ component: 'broker' });
  }

  /** Starts connecting in the background; never throws, never rejects. */
  start(): void {
    this.loop ??= this.run();
  }

  status(): BrokerStatus {
    return this.state;
  }

  isConnected(): boolean {
    return this.state === 'up';
  }

  /** True while RabbitMQ refuses our publishes (memory or disk alarm). */
  isBlocked(): boolean {
    return this.blocked;
  }

  /** A channel on the current connection; BrokerUnavailableError when there is none. */
  async openChannel(purpose: string): Promise<Channel> {
    return this.watch(purpose, await this.attempt((model) => model.createChannel()));
  }

  async openConfirmChannel(purpose: string): Promise<ConfirmChannel> {
    return this.watch(purpose, await this.attempt((model) => model.createConfirmChannel()));
  }

  private async attempt<C>(open: (model: ChannelModel) => Promise<C>): Promise<C> {
    if (!this.model) throw new BrokerUnavailableError('not connected to the message broker');
    try {
      return await open(this.model);
    } catch (err) {
      throw new BrokerUnavailableError('could not open a broker channel', { cause: err });
    }
  }

  /** Channel errors (e.g. a queue declared with other arguments) are logged, never thrown. */
  private watch<C extends Channel>(purpose: string, channel: C): C {
    channel.on('error', (err: Error) =>
      this.log.warn({ err: errorText(err), channel: purpose }, 'broker channel error'),
    );
    return channel;
  }

  /** Registers a setup for every future connection and runs it now when connected. */
  async addSetup(setup: ConnectionSetup): Promise<void> {
    this.setups.add(setup);
    // Also while the other setups of a fresh connection still run: that round has passed us by.
    if (this.model) await setup();
  }

  removeSetup(setup: ConnectionSetup): void {
    this.setups.delete(setup);
  }

  async waitUntilConnected(timeoutMs: number): Promise<void> {
    if (this.state === 'up') return;
    if (this.state === 'closed') throw new BrokerUnavailableError('broker connection closed');
    await new Promise<void>((resolve, reject) => {
      const onConnected = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.off('connected', onConnected);
        reject(new BrokerUnavailableError(`message broker not reachable within ${timeoutMs} ms`));
      }, timeoutMs);
      this.once('connected', onConnected);
    });
  }

  /** Stops reconnecting and closes the connection (channels close with it). */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.pause.interrupt();
    const model = this.model;
    if (model) await model.close().catch(() => undefined);
    await this.loop;
  }

  private async run(): Promise<void> {
    const backoff = new Backoff(
      this.options.initialDelayMs ?? 500,
      this.options.maxDelayMs ?? 5000,
    );
    while (this.status() !== 'closed') {
      const model = await this.open();
      if (model) {
        backoff.reset();
        await this.serve(model);
      }
      if (this.status() === 'closed') break;
      await this.pause.wait(backoff.next());
    }
  }

  private async open(): Promise<ChannelModel | undefined> {
    try {
      const model = await dial(this.options);
      if (this.status() === 'closed') {
        await model.close().catch(() => undefined);
        return undefined;
      }
      return model;
    } catch (err) {
      this.log.warn({ err: errorText(err) }, 'message broker connection failed; retrying');
      return undefined;
    }
  }

  /** Runs the setups, reports 'up', and returns once the connection is gone. */
  private async serve(model: ChannelModel): Promise<void> {
    let open = true;
    const closed = new Promise<void>((resolve) =>
      model.once('close', () => {
        open = false;
        resolve();
      }),
    );
    // Without an 'error' listener a dropped socket would crash the process.
    model.on('error', (err: Error) =>
      this.log.warn({ err: errorText(err) }, 'broker connection error'),
    );
    model.on('blocked', (reason: string) => {
      this.blocked = true;
      this.log.warn({ reason }, 'message broker blocked publishing');
    });
    model.on('unblocked', () => {
      this.blocked = false;
      this.log.info('message broker unblocked publishing');
    });
    this.model = model;
    this.blocked = false;
    const results = await Promise.allSettled([...this.setups].map((setup) => setup()));
    for (const result of results) {
      if (result.status === 'rejected') {
        this.log.error({ err: errorText(result.reason) }, 'broker setup failed on connect');
      }
    }
    if (open && this.state === 'down') {
      this.state = 'up';
      this.log.info('connected to the message broker');
      this.announce('connected');
    }
    await closed;
    this.model = undefined;
    if (this.state === 'up') {
      this.state = 'down';
      this.log.warn('lost the message broker connection; reconnecting');
      this.announce('disconnected');
    }
  }

  /** A throwing listener must not stop the reconnect loop. */
  private announce(event: keyof ConnectionEvents): void {
    try {
      this.emit(event);
    } catch (err) {
      this.log.error({ err: errorText(err), event }, 'broker status listener failed');
    }
  }
}
