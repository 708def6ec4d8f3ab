// Domain events on a topic exchange: routing by event name, envelope validation both ways.
import { expect } from 'chai';
import type { EventEnvelope } from '@idv/contracts';
import { createBroker, InvalidEventError, type Broker } from '../src/index.ts';
import { amqpUrl, RawBroker, testLogger, uniqueName, waitFor } from './support.ts';

function envelope(eventName: string, eventId: string): EventEnvelope {
  return {
    eventId,
    eventName,
    version: 1,
    tenantId: 'tenant-1',
    communityId: 'community-1',
    ts: Date.now(),
    data: { verificationId: eventId },
  };
}

describe('broker: domain events', function () {
  this.timeout(20_000);
  const exchange = uniqueName('events');
  const dlx = uniqueName('dlx');
  const completedQueue = uniqueName('completed');
  const allQueue = uniqueName('all');
  let broker: Broker;
  let raw: RawBroker;

  before(async () => {
    raw = await RawBroker.open();
    broker = createBroker({
      url: await amqpUrl(),
      logger: testLogger(),
      eventsExchange: exchange,
      deadLetterExchange: dlx,
    });
    await broker.waitUntilConnected(10_000);
  });

  after(async () => {
    await broker.close();
    await raw.cleanUp([completedQueue, allQueue], [exchange, dlx]);
    await raw.close();
  });

  it('routes each event by its name to the queues bound for it', async () => {
    const completed: EventEnvelope[] = [];
    const all: string[] = [];
    const one = await broker.subscribeEvents(
      completedQueue,
      ['VERIFICATION_COMPLETED'],
      (event, context) => {
        expect(context.routingKey).to.equal(event.eventName);
        completed.push(event);
      },
    );
    const both = await broker.subscribeEvents(allQueue, ['#'], (event) => {
      all.push(event.eventId);
    });
    await broker.publishEvent(envelope('VERIFICATION_STARTED', 'e-1'));
    await broker.publishEvent(envelope('VERIFICATION_COMPLETED', 'e-2'));
    await waitFor('both events on the catch-all queue', () => all.length === 2);
    await waitFor('the completed event', () => completed.length === 1);
    // routed in the order published: an e-1 wrongly sent here would have come before e-2
    expect(completed.map((e) => e.eventId)).to.deep.equal(['e-2']);
    expect(completed[0]).to.deep.include({ eventName: 'VERIFICATION_COMPLETED', version: 1 });
    expect(all.sort()).to.deep.equal(['e-1', 'e-2']);
    await one.stop();
    await both.stop();
  });

  it('publishes an event nobody subscribed to without failing', async () => {
    await broker.publishEvent(envelope('NOBODY_LISTENS', 'e-3'));
  });

  it('refuses an invalid envelope with InvalidEventError and publishes nothing', async () => {
    await raw.channel.purgeQueue(allQueue);
    const bad = { ...envelope('verification completed', 'e-4'), extra: true };
    const err = await broker.publishEvent(bad).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(InvalidEventError);
    const paths = (err as InvalidEventError).issues.map((issue) => issue.path);
    expect(paths).to.include('/eventName');
    // a valid event published after it is the first the queue holds: the refused one went nowhere
    await broker.publishEvent(envelope('VERIFICATION_STARTED', 'e-5'));
    const first = await raw.take(allQueue);
    expect((JSON.parse(first.content.toString()) as EventEnvelope).eventId).to.equal('e-5');
  });

  it('keeps events in the queues it declares for them although their consumer never ran', async () => {
    const kept = uniqueName('kept');
    const publisher = createBroker({
      url: await amqpUrl(),
      logger: testLogger(),
      eventsExchange: exchange,
      deadLetterExchange: dlx,
      keptEventQueues: [kept],
    });
    try {
      await publisher.waitUntilConnected(10_000);
      await publisher.publishEvent(envelope('VERIFICATION_STARTED', 'e-kept'));
      // the consumer comes later and declares the queue with the same arguments
      const received: string[] = [];
      const consumer = await broker.subscribeEvents(kept, ['#'], (event) => {
        received.push(event.eventId);
      });
      await waitFor('the event published before its consumer', () => received.length === 1);
      expect(received).to.deep.equal(['e-kept']);
      await consumer.stop();
    } finally {
      await publisher.close();
      await raw.cleanUp([kept], []);
    }
  });

  it('dead-letters a delivered message that is not a valid envelope', async () => {
    let calls = 0;
    const subscriber = await broker.subscribeEvents(
      completedQueue,
      ['VERIFICATION_COMPLETED'],
      () => {
        calls += 1;
      },
    );
    raw.channel.publish(exchange, 'VERIFICATION_COMPLETED', Buffer.from('{"eventId":"x"}'));
    const dead = await raw.take(`${completedQueue}.dead`);
    expect(dead.fields.routingKey).to.equal(completedQueue);
    expect(calls).to.equal(0);
    await subscriber.stop();
  });
});
