// What happens to one delivery: decode, run the handler, reply to RPC requests, then ack; or
// dead-letter it. Failure policy: poison (not JSON, or PoisonMessageError) is dead-lettered; a
// RequeueMessageError puts the message back in its queue, unanswered; any other failure answers an
// RPC caller with an error reply and acks, and dead-letters the rest.
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@idv/observability';
import { decodeJson, encodeJson, ERROR_REPLY_HEADER, type ErrorReply } from './codec.ts';
import { errorText, PoisonMessageError, RequeueMessageError } from './errors.ts';

export interface MessageContext {
  exchange: string;
  routingKey: string;
  redelivered: boolean;
  messageId: string | undefined;
  correlationId: string | undefined;
  headers: Record<string, unknown>;
}

/** Returns the reply for RPC requests (ignored otherwise); throws to fail the message. */
export type MessageHandler = (body: unknown, context: MessageContext) => unknown;

export type Outcome = 'ack' | 'replied_error' | 'dead_letter' | 'poison' | 'requeued';

/** Settles the message on `channel`; rejects only when the channel died (the broker redelivers). */
export async function handleDelivery(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  handler: MessageHandler,
  log: Logger,
): Promise<Outcome> {
  const decoded = decodeJson(message.content);
  if (!decoded.ok) {
    return deadLetter(channel, message, log, new PoisonMessageError('body is not valid JSON'));
  }
  let answer: Buffer;
  try {
    answer = encodeJson(await handler(decoded.value, contextOf(message)));
  } catch (err) {
    if (err instanceof RequeueMessageError) {
      log.info({ err: errorText(err) }, 'message put back in its queue');
      // nack, not reject: from RabbitMQ 4.3 a nack is a return that does not count as a failure
      channel.nack(message, false, true);
      return 'requeued';
    }
    if (err instanceof PoisonMessageError || !replyToOf(message)) {
      return deadLetter(channel, message, log, err);
    }
    log.error({ err: errorText(err) }, 'request failed; the caller gets an error reply');
    await sendReply(channel, message, encodeJson(errorReply(err)), true);
    channel.ack(message);
    return 'replied_error';
  }
  await sendReply(channel, message, answer, false);
  channel.ack(message);
  return 'ack';
}

/** Rejects without requeue, so the DLX moves the message to `<queue>.dead`. */
async function deadLetter(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  log: Logger,
  err: unknown,
): Promise<Outcome> {
  const poison = err instanceof PoisonMessageError;
  log.warn({ err: errorText(err), poison }, 'message moved to the dead-letter queue');
  // A waiting caller learns at once instead of at its timeout.
  await sendReply(channel, message, encodeJson(errorReply(err)), true).catch(() => undefined);
  channel.reject(message, false);
  return poison ? 'poison' : 'dead_letter';
}

/** Sends the reply to an RPC request (no-op otherwise) and waits for the broker's confirm. */
async function sendReply(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  content: Buffer,
  failed: boolean,
): Promise<void> {
  const replyTo = replyToOf(message);
  if (!replyTo) return;
  const correlationId: unknown = message.properties.correlationId;
  await new Promise<void>((resolve, reject) => {
    channel.sendToQueue(
      replyTo,
      content,
      {
        contentType: 'application/json',
        ...(typeof correlationId === 'string' ? { correlationId } : {}),
        ...(failed ? { headers: { [ERROR_REPLY_HEADER]: true } } : {}),
      },
      (err: unknown) => (err ? reject(new Error('reply not confirmed')) : resolve()),
    );
  });
}

function replyToOf(message: ConsumeMessage): string | undefined {
  const replyTo: unknown = message.properties.replyTo;
  return typeof replyTo === 'string' && replyTo !== '' ? replyTo : undefined;
}

function contextOf(message: ConsumeMessage): MessageContext {
  const messageId: unknown = message.properties.messageId;
  const correlationId: unknown = message.properties.correlationId;
  const headers: Record<string, unknown> = message.properties.headers ?? {};
  return {
    exchange: message.fields.exchange,
    routingKey: message.fields.routingKey,
    redelivered: message.fields.redelivered,
    messageId: typeof messageId === 'string' ? messageId : undefined,
    correlationId: typeof correlationId === 'string' ? correlationId : undefined,
    headers,
  };
}

function errorReply(err: unknown): ErrorReply {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}
