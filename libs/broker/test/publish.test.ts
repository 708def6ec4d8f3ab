// Publishing with confirms against the real broker, and fast failure while it is unreachable.
import { expect } from 'chai';
import net from 'node:net';
import {
  BrokerUnavailableError,
  createBroker,
  UnroutableMessageError,
  type Broker,
} from '../src/index.ts';
import { amqpUrl, RawBroker, testLogger, uniqueName, waitFor } from './support.ts';

describe('broker: publish with confirms', function () {
  this.timeout(20_000);
  const queue = uniqueName('publish');
  const dlx = uniqueName('dlx');
  let broker: Broker;
  let raw: RawBroker;

  before(async () => {
    raw = await RawBroker.open();
    broker = createBroker({ url: await amqpUrl(), logger: testLogger(), deadLetterExchange: dlx });
    await broker.waitUntilConnected(10_000);
  });

  after(async () => {
    await broker.close();
    await raw.cleanUp([queue], [dlx]);
    await raw.close();
  });

  it('reports up and delivers a confirmed, persistent JSON message to a consumer', async () => {
    expect(broker.status()).to.equal('up');
    const received: unknown[] = [];
    const consumer = await broker.consume(queue, (body, context) => {
      received.push({ body, key: context.routingKey, id: context.messageId });
    });
    await broker.publish('', queue, { hello: 'world' }, { messageId: 'm-1' });
    await waitFor('the message', () => received.length === 1);
    expect(received[0]).to.deep.equal({ body: { hello: 'world' }, key: queue, id: 'm-1' });
    await consumer.stop();
  });

  it('sets persistent delivery and the JSON content type', async () => {
    await broker.publish('', queue, { n: 1 });
    const message = await raw.take(queue);
    expect(message.properties.deliveryMode).to.equal(2);
    expect(message.properties.contentType).to.equal('application/json');
  });

  it('rejects a message no queue takes with UnroutableMessageError', async () => {
    const err = await broker.publish('', uniqueName('nobody'), { n: 1 }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(UnroutableMessageError);
  });

  it('accepts an unroutable message when allowed', async () => {
    await broker.publish('', uniqueName('nobody'), { n: 1 }, { allowUnroutable: true });
  });

  it('rejects a publish to a missing exchange and keeps publishing afterwards', async () => {
    const err = await broker.publish(uniqueName('no-exchange'), 'k', {}).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(UnroutableMessageError);
    await broker.publish('', queue, { after: true });
    expect((await raw.take(queue)).content.toString()).to.equal('{"after":true}');
  });
});

describe('broker: while RabbitMQ is unreachable', function () {
  this.timeout(10_000);
  let broker: Broker;

  before(async () => {
    // A port that was free a moment ago: connection attempts are refused.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    broker = createBroker({ url: `amqp://guest:guest@127.0.0.1:${port}`, logger: testLogger() });
  });

  after(() => broker.close());

  it('starts anyway and reports down', () => {
    expect(broker.status()).to.equal('down');
  });

  it('rejects publish, publishEvent and request at once with BrokerUnavailableError', async () => {
    const started = Date.now();
    const attempts = [
      broker.publish('', 'q', { n: 1 }),
      broker.publishEvent({
        eventId: 'e-1',
        eventName: 'VERIFICATION_COMPLETED',
        version: 1,
        tenantId: 't',
        communityId: 'c',
        ts: Date.now(),
        data: {},
      }),
      broker.request('q', { n: 1 }, { timeoutMs: 5000 }),
    ];
    for (const attempt of attempts) {
      expect(await attempt.catch((e: unknown) => e)).to.be.instanceOf(BrokerUnavailableError);
    }
    expect(Date.now() - started).to.be.below(1000);
  });

  it('lets a consumer be registered for later', async () => {
    const consumer = await broker.consume(uniqueName('later'), () => undefined);
    await consumer.stop();
  });

  it('waitUntilConnected rejects after its timeout', async () => {
    const err = await broker.waitUntilConnected(200).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(BrokerUnavailableError);
    expect((err as Error).name).to.equal('BrokerUnavailableError');
  });
});
