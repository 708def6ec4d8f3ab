// Request-reply through a worker on the real broker: round trip, timeouts, late and duplicate
// replies, remote failures and requests nobody serves.
import { expect } from 'chai';
import { Registry } from '@idv/observability';
import {
  BrokerUnavailableError,
  createBroker,
  RpcRemoteError,
  RpcTimeoutError,
  type Broker,
  type Consumer,
} from '../src/index.ts';
import { amqpUrl, RawBroker, sleep, testLogger, uniqueName, waitFor } from './support.ts';

/** A counter's value, or a histogram's observation count, for the given labels. */
async function metricValue(registry: Registry, name: string, labels: Record<string, string>) {
  const metric = registry.getSingleMetric(name);
  const values = metric ? (await metric.get()).values : [];
  const match = values.find((v) => {
    // histograms list buckets, sum and count; counters have no metricName
    const { metricName } = v as { metricName?: string };
    const counted = metricName === undefined || metricName === `${name}_count`;
    return counted && Object.entries(labels).every(([k, l]) => v.labels[k] === l);
  });
  return match?.value ?? 0;
}

describe('broker: request-reply', function () {
  this.timeout(20_000);
  const queue = uniqueName('rpc');
  const rawQueue = uniqueName('rpc-raw');
  const dlx = uniqueName('dlx');
  const registry = new Registry();
  let broker: Broker;
  let worker: Consumer;
  let raw: RawBroker;
  /** the op of every request the worker took */
  const taken: string[] = [];

  before(async () => {
    raw = await RawBroker.open();
    broker = createBroker({
      url: await amqpUrl(),
      logger: testLogger(),
      registry,
      deadLetterExchange: dlx,
    });
    await broker.waitUntilConnected(10_000);
    worker = await broker.consume(queue, async (body) => {
      const request = body as { op: string; delayMs?: number; value?: number };
      taken.push(request.op);
      if (request.delayMs) await sleep(request.delayMs);
      if (request.op === 'fail') throw new TypeError('cannot do that');
      return { doubled: (request.value ?? 0) * 2 };
    });
  });

  after(async () => {
    await worker.stop();
    await broker.close();
    await raw.cleanUp([queue, rawQueue], [dlx]);
    await raw.close();
  });

  it('round-trips a request and records its duration', async () => {
    expect(await broker.request(queue, { op: 'double', value: 21 })).to.deep.equal({ doubled: 42 });
    expect(
      await metricValue(registry, 'broker_rpc_duration_seconds', { queue, outcome: 'ok' }),
    ).to.be.greaterThan(0);
  });

  it('serves concurrent requests each with its own reply', async () => {
    const values = Array.from({ length: 20 }, (_, i) => i);
    const replies = await Promise.all(values.map((value) => broker.request(queue, { value })));
    expect(replies).to.deep.equal(values.map((value) => ({ doubled: value * 2 })));
  });

  it('rejects with RpcTimeoutError, then drops and counts the late reply', async () => {
    const started = Date.now();
    const err = await broker
      .request(queue, { op: 'double', value: 1, delayMs: 600 }, { timeoutMs: 150 })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RpcTimeoutError);
    expect(Date.now() - started).to.be.below(600);
    await waitFor(
      'the late reply to be counted',
      async () => (await metricValue(registry, 'broker_rpc_late_replies_total', { queue })) === 1,
    );
    // the client keeps working after dropping it
    expect(await broker.request(queue, { value: 2 })).to.deep.equal({ doubled: 4 });
  });

  it('turns a handler failure into RpcRemoteError without dead-lettering the request', async () => {
    const err = await broker.request(queue, { op: 'fail' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RpcRemoteError);
    expect((err as RpcRemoteError).remoteName).to.equal('TypeError');
    expect((err as Error).message).to.contain('cannot do that');
    expect(await raw.messageCount(`${queue}.dead`)).to.equal(0);
  });

  it('rejects at once with BrokerUnavailableError when no queue serves the request', async () => {
    const err = await broker
      .request(uniqueName('nobody'), {}, { timeoutMs: 5000 })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(BrokerUnavailableError);
  });

  it('sends with an expiration equal to the timeout and ignores a duplicate reply', async () => {
    await raw.channel.assertQueue(rawQueue, { durable: false });
    const reply = broker.request(rawQueue, { ping: true }, { timeoutMs: 3000 });
    const request = await raw.take(rawQueue);
    expect(request.properties.expiration).to.equal('3000');
    const replyTo: string = request.properties.replyTo;
    const correlationId: string = request.properties.correlationId;
    for (const answer of ['first', 'second']) {
      raw.channel.sendToQueue(replyTo, Buffer.from(JSON.stringify(answer)), { correlationId });
    }
    expect(await reply).to.equal('first');
    // a marker behind the duplicate on the same reply queue: the reply to a call that timed out,
    // which is counted late; once it is, the duplicate before it was dropped without a count
    const late = broker.request(rawQueue, { ping: 'late' }, { timeoutMs: 50 }).catch(() => 'gone');
    const timedOut = await raw.take(rawQueue);
    expect(await late).to.equal('gone');
    raw.channel.sendToQueue(timedOut.properties.replyTo, Buffer.from('"late"'), {
      correlationId: timedOut.properties.correlationId,
    });
    const lateReplies = () =>
      metricValue(registry, 'broker_rpc_late_replies_total', { queue: rawQueue });
    await waitFor('the late reply counted', async () => (await lateReplies()) > 0);
    expect(await lateReplies()).to.equal(1);
  });

  it('rejects calls still waiting with BrokerUnavailableError when the broker closes', async () => {
    const other = createBroker({
      url: await amqpUrl(),
      logger: testLogger(),
      deadLetterExchange: dlx,
    });
    await other.waitUntilConnected(10_000);
    const pending = other
      .request(queue, { op: 'held', value: 1, delayMs: 1000 }, { timeoutMs: 5000 })
      .catch((e: unknown) => e);
    await waitFor('the request taken by the worker', () => taken.includes('held'));
    await other.close();
    expect(await pending).to.be.instanceOf(BrokerUnavailableError);
  });
});
