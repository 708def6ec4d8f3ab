// Looks into a queue without taking anything: every message is fetched unacknowledged and goes
// back when the channel closes. Test queues bound to the shared `events` exchange also collect
// other suites' events, so tests look for their own event ids rather than count messages.
import amqp from 'amqplib';

export interface WaitingEvent {
  eventId: string;
  eventName: string;
  communityId: string;
}

/** The events waiting in `queue` (its other messages left out), or undefined without the queue. */
export async function peekEvents(
  amqpUrl: string,
  queue: string,
): Promise<WaitingEvent[] | undefined> {
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    const exists = await channel.checkQueue(queue).then(
      () => true,
      () => false,
    );
    if (!exists) return undefined;
    const events: WaitingEvent[] = [];
    for (;;) {
      const message = await channel.get(queue, { noAck: false });
      if (message === false) break;
      const body = JSON.parse(message.content.toString()) as Partial<WaitingEvent>;
      if (body.eventId && body.eventName && body.communityId)
        events.push({
          eventId: body.eventId,
          eventName: body.eventName,
          communityId: body.communityId,
        });
    }
    return events;
  } finally {
    // closing returns every unacknowledged message to its queue
    await connection.close().catch(() => undefined);
  }
}
