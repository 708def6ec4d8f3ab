// The gateway world plus a dispatcher with test settings on a unique events queue.
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { testAmqpUrl } from '@idv/testing/testServers';
import { deleteQueues } from './amqpCleanup.ts';
import { eventually } from './eventually.ts';
import { startWebhooksWorld, type WebhooksWorld } from './webhooksWorld.ts';

export function dispatcherEnv(world: WebhooksWorld, extra: Record<string, string> = {}) {
  return {
    ...world.env,
    WEBHOOK_DISPATCHER_PORT: '0',
    WEBHOOK_EVENTS_QUEUE: `test.webhooks.${randomBytes(4).toString('hex')}`,
    WEBHOOK_SSRF_ALLOW: '127.0.0.1/32',
    WEBHOOK_RETRY_BASE_MS: '50',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_HTTP_TIMEOUT_MS: '2000',
    WEBHOOK_LEASE_MS: '3000',
    ...extra,
  };
}

/** Removes a test's events queue (and its dead letters) so it stops collecting others' events. */
export async function deleteQueue(queue: string): Promise<void> {
  await deleteQueues(await testAmqpUrl(), [queue]);
}

export { startWebhooksWorld, type WebhooksWorld };

/** Waits until the dispatcher's events queue is declared (it binds once the broker is up). */
export async function waitForQueue(queue: string, timeoutMs = 15_000): Promise<void> {
  const connection = await amqp.connect(await testAmqpUrl());
  try {
    await eventually(
      `the dispatcher to declare its queue ${queue}`,
      async () => {
        // a channel checking a missing queue is closed by the broker: one channel per check
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        const found = await channel.checkQueue(queue).then(
          () => true,
          () => false,
        );
        if (found) await channel.close();
        return found;
      },
      { timeoutMs, intervalMs: 100 },
    );
  } finally {
    await connection.close();
  }
}
