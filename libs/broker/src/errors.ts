// The typed errors callers of the broker see; their names are stable so other layers can map them.
import type { ValidationIssue } from '@idv/contracts';

/** The broker cannot take the message now (down, reconnecting, blocked): retry later, HTTP 503. */
export class BrokerUnavailableError extends Error {
  override readonly name = 'BrokerUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A mandatory message had no queue to go to (no binding, or the exchange does not exist). */
export class UnroutableMessageError extends Error {
  override readonly name = 'UnroutableMessageError';
  constructor(
    readonly exchange: string,
    readonly routingKey: string,
    reason: string,
  ) {
    super(`message to exchange '${exchange}' with key '${routingKey}' not routed: ${reason}`);
  }
}

/** No reply to a request within its timeout; the request itself expires unworked. */
export class RpcTimeoutError extends Error {
  override readonly name = 'RpcTimeoutError';
  constructor(
    readonly queue: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply from '${queue}' within ${timeoutMs} ms`);
  }
}

/** The worker answered the request with an error instead of a result. */
export class RpcRemoteError extends Error {
  override readonly name = 'RpcRemoteError';
  constructor(
    readonly queue: string,
    readonly remoteName: string,
    message: string,
  ) {
    super(`'${queue}' failed: ${message}`);
  }
}

/** An event envelope that does not match the EventEnvelope contract; never published. */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  constructor(readonly issues: ValidationIssue[]) {
    super(`invalid event envelope: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  }
}

/**
 * Thrown by a handler (or by the helpers) for a message that can never be processed: the message
 * goes to the dead-letter queue instead of being retried.
 */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

/**
 * Thrown by a handler that cannot do its work now but must not lose the message, e.g. its process
 * stops while the database is away: the message goes back to its queue (basic.nack with requeue)
 * for this or another consumer, neither answered nor dead-lettered. A quorum queue may count each
 * return towards its delivery limit (RabbitMQ before 4.3 does), so this is for a rare return such
 * as a shutdown, not a retry loop.
 */
export class RequeueMessageError extends Error {
  override readonly name = 'RequeueMessageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Logs carry the message only: amqplib errors hold stacks and frames that add no information. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
