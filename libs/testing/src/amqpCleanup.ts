// Deletes the queues a test declared (and their dead-letter queues), so runs leave no topology.
import { connect } from 'amqplib';
import { deadLetterQueueName } from '@idv/broker';

export async function deleteQueues(amqpUrl: string, queues: string[]): Promise<void> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const queue of queues.flatMap((q) => [q, deadLetterQueueName(q)])) {
      await channel.deleteQueue(queue).catch(() => undefined);
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
