// Publishing with publisher confirms: a promise per message that settles on the broker's answer.
import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, Message, Options } from 'amqplib';
import type { Logger } from '@idv/observability';
import type { BrokerConnection } from './connection.ts';
import { BrokerUnavailableError, errorText, UnroutableMessageError } from './errors.ts';
import { encodeJson } from './codec.ts';

export type HeaderValue = string | number | boolean;

export interface PublishOptions {
  /** defaults to a random UUID; also what a returned message is recognised by */
  messageId?: string;
  headers?: Record<string, HeaderValue>;
  correlationId?: string;
  replyTo?: string;
  type?: string;
  /** ms after which the broker drops (or dead-letters) the message unconsumed */
  expiration?: number;
  /** a message no queue takes is logged and the promise resolves, instead of rejecting */
  allowUnroutable?: boolean;
}

/** The channel of the moment, with what we learnt from it before it closed. */
interface PublishChannel {
  channel: ConfirmChannel;
  returned: Set<string>;
  closeError: { code?: unknown; message: string } | undefined;
}

export class ConfirmPublisher {
  private current: Promise<PublishChannel> | undefined;
  private readonly log: Logger;

  constructor(
    private readonly connection: BrokerConnection,
    logger: Logger,
    private readonly confirmTimeoutMs = 10_000,
  ) {
    this.log = logger.child({ component: 'broker-publisher' });
  }

  /** Resolves once the broker confirmed the message (persistent, JSON) as stored or routed. */
  async publish(
    exchange: string,
    routingKey: string,
    body: object,
    options: PublishOptions = {},
  ): Promise<void> {
    if (!this.connection.isConnected()) {
      throw new BrokerUnavailableError('the message broker is not connected');
    }
    if (this.connection.isBlocked()) {
      throw new BrokerUnavailableError('the message broker is refusing publishes (resource alarm)');
    }
    const target = await this.channel();
    const messageId = options.messageId ?? randomUUID();
    const content = encodeJson(body);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new BrokerUnavailableError(`publish not confirmed within ${this.confirmTimeoutMs} ms`),
        );
      }, this.confirmTimeoutMs);
      const settle = (err: unknown): void => {
        clearTimeout(timer);
        // RabbitMQ sends basic.return before the confirm of the same message.
        const returned = target.returned.delete(messageId);
        if (err) reject(this.failure(target, exchange, routingKey, err));
        else if (returned && !options.allowUnroutable) {
          reject(new UnroutableMessageError(exchange, routingKey, 'no queue bound for it'));
        } else resolve();
      };
      try {
        target.channel.publish(
          exchange,
          routingKey,
          content,
          {
            persistent: true,
            mandatory: true,
            contentType: 'application/json',
            messageId,
            // AMQP timestamps are POSIX seconds
            timestamp: Math.floor(Date.now() / 1000),
            ...optional(options),
          },
          settle,
        );
      } catch (err) {
        settle(err);
      }
    });
  }

  /** Closes the publishing channel; unconfirmed publishes reject. */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) {
      const { channel } = await current.catch(() => ({ channel: undefined }));
      await channel?.close().catch(() => undefined);
    }
  }

  /** The open channel, shared by concurrent publishes; a closed or failed one is forgotten. */
  private channel(): Promise<PublishChannel> {
    if (this.current) return this.current;
    const opening = this.open();
    this.current = opening;
    const forget = (): void => {
      if (this.current === opening) this.current = undefined;
    };
    opening.then((target) => target.channel.once('close', forget), forget);
    return opening;
  }

  private async open(): Promise<PublishChannel> {
    const channel = await this.connection.openConfirmChannel('publisher');
    const target: PublishChannel = { channel, returned: new Set(), closeError: undefined };
    channel.on('return', (message: Message) => {
      const id: unknown = message.properties.messageId;
      if (typeof id === 'string') target.returned.add(id);
      this.log.warn(
        { exchange: message.fields.exchange, routingKey: message.fields.routingKey },
        'message returned unroutable by the broker',
      );
    });
    channel.on('error', (err: Error & { code?: unknown }) => {
      target.closeError = { code: err.code, message: err.message };
    });
    return target;
  }

  private failure(target: PublishChannel, exchange: string, key: string, err: unknown): Error {
    // Publishing to an exchange that does not exist closes the channel with 404 NOT_FOUND.
    if (target.closeError?.code === 404) {
      return new UnroutableMessageError(exchange, key, target.closeError.message);
    }
    this.log.warn({ err: errorText(err), exchange }, 'publish not confirmed');
    return new BrokerUnavailableError('the message broker did not confirm the message', {
      cause: err,
    });
  }
}

function optional(options: PublishOptions): Options.Publish {
  const { headers, correlationId, replyTo, type, expiration } = options;
  return {
    ...(headers ? { headers } : {}),
    ...(correlationId ? { correlationId } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(type ? { type } : {}),
    ...(expiration !== undefined ? { expiration: String(expiration) } : {}),
  };
}
