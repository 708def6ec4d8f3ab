// Losing the broker and getting it back, through a TCP proxy we cut (the shared RabbitMQ stays up).
import { expect } from 'chai';
import {
  BrokerUnavailableError,
  createBroker,
  type Broker,
  type BrokerStatus,
  type Consumer,
} from '../src/index.ts';
import { TcpProxy } from '@idv/testing/tcpProxy';
import { amqpUrl, RawBroker, sleep, testLogger, uniqueName, waitFor } from './support.ts';

describe('broker: reconnect after the connection drops', function () {
  this.timeout(30_000);
  const queue = uniqueName('reconnect');
  const dlx = uniqueName('dlx');
  const received: number[] = [];
  const taken: number[] = [];
  const statuses: BrokerStatus[] = [];
  let proxy: TcpProxy;
  let broker: Broker;
  let consumer: Consumer;
  let raw: RawBroker;

  before(async () => {
    raw = await RawBroker.open();
    const target = new URL(await amqpUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5672));
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    broker = createBroker({
      url: target.toString(),
      logger: testLogger(),
      deadLetterExchange: dlx,
      reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
    });
    broker.onStatusChange((status) => statuses.push(status));
    await broker.waitUntilConnected(10_000);
    consumer = await broker.consume(queue, async (body) => {
      const { n, delayMs } = body as { n: number; delayMs?: number };
      taken.push(n);
      if (delayMs) await sleep(delayMs);
      received.push(n);
      return { n };
    });
  });

  after(async () => {
    await consumer.stop();
    await broker.close();
    await proxy.close();
    await raw.cleanUp([queue], [dlx]);
    await raw.close();
  });

  it('works before the drop', async () => {
    await broker.publish('', queue, { n: 1 });
    await waitFor('the first message', () => received.includes(1));
    expect(await broker.request(queue, { n: 2 })).to.deep.equal({ n: 2 });
  });

  it('goes down, fails fast while down, and comes back up by itself', async () => {
    const waiting = broker
      .request(queue, { n: 3, delayMs: 2000 }, { timeoutMs: 8000 })
      .catch((e: unknown) => e);
    await waitFor('the request taken by the consumer', () => taken.includes(3));
    proxy.cut();
    await waitFor('status down', () => broker.status() === 'down');
    // a call waiting for its reply does not wait for its timeout
    expect(await waiting).to.be.instanceOf(BrokerUnavailableError);
    const publishing = await broker.publish('', queue, { n: 4 }).catch((e: unknown) => e);
    expect(publishing).to.be.instanceOf(BrokerUnavailableError);

    const refused = proxy.refused;
    await waitFor('three refused reconnect attempts', () => proxy.refused >= refused + 3);
    expect(broker.status()).to.equal('down');
    proxy.restore();
    await waitFor('status up again', () => broker.status() === 'up', 15_000);
    expect(statuses).to.deep.equal(['up', 'down', 'up']);
  });

  it('delivers again to the consumer registered before the drop', async () => {
    await broker.publish('', queue, { n: 5 });
    await waitFor('the message after reconnect', () => received.includes(5));
  });

  it('serves request-reply again', async () => {
    expect(await broker.request(queue, { n: 6 })).to.deep.equal({ n: 6 });
  });
});

describe('broker: started while RabbitMQ is unreachable', function () {
  this.timeout(30_000);
  const queue = uniqueName('late-start');
  const dlx = uniqueName('dlx');
  let proxy: TcpProxy;
  let broker: Broker;
  let raw: RawBroker;

  before(async () => {
    raw = await RawBroker.open();
    const target = new URL(await amqpUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5672));
    proxy.cut();
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    broker = createBroker({
      url: target.toString(),
      logger: testLogger(),
      deadLetterExchange: dlx,
      reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
    });
  });

  after(async () => {
    await broker.close();
    await proxy.close();
    await raw.cleanUp([queue], [dlx]);
    await raw.close();
  });

  it('connects in the background and starts the consumers registered meanwhile', async () => {
    const received: unknown[] = [];
    const consumer = await broker.consume(queue, (body) => {
      received.push(body);
    });
    await waitFor('two refused connection attempts', () => proxy.refused >= 2);
    expect(broker.status()).to.equal('down');
    proxy.restore();
    await broker.waitUntilConnected(15_000);
    await broker.publish('', queue, { hello: 'late' });
    await waitFor('the message', () => received.length === 1);
    expect(received[0]).to.deep.equal({ hello: 'late' });
    await consumer.stop();
  });
});
