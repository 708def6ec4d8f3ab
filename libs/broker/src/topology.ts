// Every exchange and queue we declare, with their arguments in one place (the RabbitMQ definitions
// file must match them: a redeclaration with other arguments fails with PRECONDITION_FAILED).
import type { Channel } from 'amqplib';

export type QueueType = 'classic' | 'quorum';

export interface WorkQueue {
  name: string;
  /** shared direct exchange every dead letter goes through, e.g. 'dlx' */
  deadLetterExchange: string;
  type: QueueType;
  /**
   * The type an earlier release declared this queue with: a queue still of that type is consumed
   * as it is, with a warning, instead of being refused (RabbitMQ cannot change a queue's type; an
   * operator deletes the drained queue and the next start declares `type`).
   */
  formerType?: QueueType;
}

/** RabbitMQ closed the channel because a queue exists with other arguments (406). */
export function isPreconditionFailed(err: unknown): boolean {
  return (err as { code?: unknown }).code === 406;
}

/** Where the dead letters of `queue` are kept. */
export function deadLetterQueueName(queue: string): string {
  return `${queue}.dead`;
}

/**
 * The arguments of a work queue. Dead letters keep the queue's name as routing key (not the
 * message's original key, which for events is the event name), so one binding per queue on a
 * shared direct DLX is enough.
 */
export function workQueueArguments(queue: WorkQueue): Record<string, string> {
  return {
    'x-queue-type': queue.type,
    'x-dead-letter-exchange': queue.deadLetterExchange,
    'x-dead-letter-routing-key': queue.name,
  };
}

export function deadLetterQueueArguments(queue: WorkQueue): Record<string, string> {
  return { 'x-queue-type': queue.type };
}

/** Declares the DLX, `<queue>.dead` bound to it, and the durable work queue itself. */
export async function declareWorkQueue(channel: Channel, queue: WorkQueue): Promise<void> {
  const dead = deadLetterQueueName(queue.name);
  await channel.assertExchange(queue.deadLetterExchange, 'direct', { durable: true });
  await channel.assertQueue(dead, { durable: true, arguments: deadLetterQueueArguments(queue) });
  await channel.bindQueue(dead, queue.deadLetterExchange, queue.name);
  await channel.assertQueue(queue.name, { durable: true, arguments: workQueueArguments(queue) });
}

/**
 * A wait queue: nobody consumes it; each message expires after `ttlMs` (the same for all, so none
 * waits behind a longer one) and is dead-lettered through the default exchange into `target`.
 */
export function delayQueueArguments(
  target: string,
  ttlMs: number,
): Record<string, string | number> {
  return {
    'x-queue-type': 'classic',
    'x-message-ttl': ttlMs,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': target,
  };
}

export async function declareDelayQueue(
  channel: Channel,
  name: string,
  target: string,
  ttlMs: number,
): Promise<void> {
  await channel.assertQueue(name, { durable: true, arguments: delayQueueArguments(target, ttlMs) });
}

/** The topic exchange domain events are published on, routing key = event name. */
export async function declareEventsExchange(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

/** The binding key of a queue that keeps every event (the webhook dispatcher's). */
export const ALL_EVENTS = '#';

/** Binds a queue to an exchange once per key; bindings are idempotent. */
export async function bindKeys(
  channel: Channel,
  queue: string,
  exchange: string,
  keys: readonly string[],
): Promise<void> {
  for (const key of keys) await channel.bindQueue(queue, exchange, key);
}
