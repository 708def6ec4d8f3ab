// What the broker suites share: the broker URL, unique names, a raw amqplib side channel to look
// at queues from outside the library, polling, and a quiet logger.
import { randomBytes } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { eventually } from '@idv/testing/eventually';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger, type Logger } from '@idv/observability';
import { deadLetterQueueName } from '../src/index.ts';

/** The test broker: AMQP_URL, a container where Docker runs, else the local default. */
export const amqpUrl = testAmqpUrl;

export function testLogger(): Logger {
  return createLogger({ service: 'broker-test', level: process.env.BROKER_TEST_LOG ?? 'silent' });
}

/** A fresh name per run, so suites sharing a broker never see each other's messages. */
export function uniqueName(what: string): string {
  return `test.broker.${what}.${randomBytes(4).toString('hex')}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; generous limits because CI machines are noisy. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  await eventually(what, check, { timeoutMs, intervalMs: 20 });
}

/** A plain amqplib connection: publishes raw bytes, inspects and deletes test topology. */
export class RawBroker {
  private constructor(
    private readonly model: ChannelModel,
    readonly channel: Channel,
  ) {}

  static async open(): Promise<RawBroker> {
    const model = await connect(await amqpUrl());
    const channel = await model.createChannel();
    return new RawBroker(model, channel);
  }

  /** Waits for the next message in `queue` and takes it (acked). */
  async take(queue: string, timeoutMs = 10_000): Promise<GetMessage> {
    let got: GetMessage | false = false;
    await waitFor(
      `a message in ${queue}`,
      async () => {
        got = await this.channel.get(queue, { noAck: true });
        return got !== false;
      },
      timeoutMs,
    );
    return got as unknown as GetMessage;
  }

  /** Messages ready in `queue`: not yet handed to a consumer. */
  async messageCount(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  async consumerCount(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).consumerCount;
  }

  /** Deletes work queues with their dead-letter queues, then exchanges; missing ones are fine. */
  async cleanUp(queues: string[], exchanges: string[]): Promise<void> {
    for (const queue of queues.flatMap((q) => [q, deadLetterQueueName(q)])) {
      await this.channel.deleteQueue(queue);
    }
    for (const exchange of exchanges) await this.channel.deleteExchange(exchange);
  }

  async close(): Promise<void> {
    await this.model.close();
  }
}

/** A promise with its resolver, for handlers the test releases by hand. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
