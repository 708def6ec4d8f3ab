// Request-reply over RabbitMQ direct reply-to: correlation ids, per-call timeouts, typed failures.
import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage, Message } from 'amqplib';
import type { Logger } from '@idv/observability';
import { decodeJson, encodeJson, ERROR_REPLY_HEADER, readErrorReply } from './codec.ts';
import type { BrokerConnection } from './connection.ts';
import { BrokerUnavailableError, RpcRemoteError, RpcTimeoutError } from './errors.ts';
import type { BrokerMetrics } from './metrics.ts';
import type { HeaderValue } from './publisher.ts';

/** RabbitMQ's pseudo-queue: replies go straight to this channel's consumer, no reply queue. */
const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';
/** How many timed-out ids are remembered to tell late replies from stray ones. */
const REMEMBERED_TIMEOUTS = 10_000;

export interface RequestOptions {
  /** ms to wait for the reply; the request expires in the queue after the same time */
  timeoutMs?: number;
  headers?: Record<string, HeaderValue>;
}

type Outcome = 'ok' | 'error' | 'timeout' | 'unavailable';

interface PendingCall {
  queue: string;
  started: bigint;
  timer: NodeJS.Timeout;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class RpcClient {
  private current: Promise<Channel> | undefined;
  private readonly pending = new Map<string, PendingCall>();
  private readonly timedOut = new Map<string, string>();
  private readonly log: Logger;

  constructor(
    private readonly connection: BrokerConnection,
    logger: Logger,
    private readonly metrics: BrokerMetrics | undefined,
    private readonly defaultTimeoutMs = 10_000,
  ) {
    this.log = logger.child({ component: 'broker-rpc' });
  }

  /** Sends `body` to `queue` (default exchange) and resolves with the worker's JSON reply. */
  async request(queue: string, body: object, options: RequestOptions = {}): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const started = process.hrtime.bigint();
    let channel: Channel;
    try {
      if (!this.connection.isConnected()) {
        throw new BrokerUnavailableError('the message broker is not connected');
      }
      channel = await this.channel();
    } catch (err) {
      this.observe(queue, 'unavailable', started);
      throw err;
    }
    const correlationId = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        this.rememberTimeout(correlationId, queue);
        this.observe(queue, 'timeout', started);
        reject(new RpcTimeoutError(queue, timeoutMs));
      }, timeoutMs);
      this.pending.set(correlationId, { queue, started, timer, resolve, reject });
      try {
        channel.sendToQueue(queue, encodeJson(body), {
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          // A caller that gave up does not want the work done any more.
          expiration: String(timeoutMs),
          contentType: 'application/json',
          mandatory: true,
          ...(options.headers ? { headers: options.headers } : {}),
        });
      } catch (err) {
        this.fail(correlationId, new BrokerUnavailableError('request not sent', { cause: err }));
      }
    });
  }

  /** Rejects every call still waiting and closes the channel. */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    this.failAll(new BrokerUnavailableError('the broker client is closing'));
    const channel = await current?.catch(() => undefined);
    await channel?.close().catch(() => undefined);
  }

  private channel(): Promise<Channel> {
    if (this.current) return this.current;
    const opening = this.open();
    this.current = opening;
    opening.catch(() => {
      if (this.current === opening) this.current = undefined;
    });
    return opening;
  }

  private async open(): Promise<Channel> {
    const channel = await this.connection.openChannel('rpc');
    const opening = this.current;
    channel.once('close', () => {
      if (this.current === opening) this.current = undefined;
      this.failAll(new BrokerUnavailableError('broker channel closed before the reply came'));
    });
    channel.on('return', (message: Message) => {
      const id: unknown = message.properties.correlationId;
      const error = new BrokerUnavailableError(`no queue '${message.fields.routingKey}' to serve`);
      if (typeof id === 'string') this.fail(id, error);
    });
    // Direct reply-to needs the consumer (noAck) on the publishing channel before the first send.
    await channel.consume(DIRECT_REPLY_TO, (message) => this.onReply(channel, message), {
      noAck: true,
    });
    return channel;
  }

  private onReply(channel: Channel, message: ConsumeMessage | null): void {
    if (!message) {
      // The broker cancelled our reply consumer: nothing more can arrive on this channel.
      void channel.close().catch(() => undefined);
      return;
    }
    const id: unknown = message.properties.correlationId;
    const call = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (typeof id !== 'string' || !call) {
      this.dropStray(id);
      return;
    }
    const decoded = decodeJson(message.content);
    if (!decoded.ok) {
      const invalid = new RpcRemoteError(call.queue, 'InvalidReply', 'reply is not JSON');
      this.settle(id, 'error', () => call.reject(invalid));
    } else if (message.properties.headers?.[ERROR_REPLY_HEADER]) {
      const remote = readErrorReply(decoded.value);
      const failure = new RpcRemoteError(call.queue, remote.name, remote.message);
      this.settle(id, 'error', () => call.reject(failure));
    } else {
      this.settle(id, 'ok', () => call.resolve(decoded.value));
    }
  }

  /** A reply with no waiting call: late (after its timeout) or a duplicate; either way dropped. */
  private dropStray(id: unknown): void {
    const queue = typeof id === 'string' ? this.timedOut.get(id) : undefined;
    if (typeof id === 'string' && queue !== undefined) {
      this.timedOut.delete(id);
      this.metrics?.rpcLateReplies.inc({ queue });
      this.log.info({ queue, correlationId: id }, 'late reply dropped');
    } else {
      this.log.debug({ correlationId: id }, 'reply for no waiting request ignored');
    }
  }

  private fail(id: string, err: Error): void {
    const call = this.pending.get(id);
    if (call) this.settle(id, 'unavailable', () => call.reject(err));
  }

  private failAll(err: Error): void {
    for (const id of [...this.pending.keys()]) this.fail(id, err);
  }

  private settle(id: string, outcome: Outcome, finish: () => void): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    this.observe(call.queue, outcome, call.started);
    finish();
  }

  private rememberTimeout(id: string, queue: string): void {
    this.timedOut.set(id, queue);
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.timedOut.size > REMEMBERED_TIMEOUTS) {
      const oldest = this.timedOut.keys().next();
      if (!oldest.done) this.timedOut.delete(oldest.value);
    }
  }

  private observe(queue: string, outcome: Outcome, started: bigint): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics?.rpcDuration.observe({ queue, outcome }, seconds);
  }
}
