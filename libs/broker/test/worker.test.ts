// Work-queue consumers on the real broker: dead letters, failure policy, prefetch, graceful stop.
import { expect } from 'chai';
import { createBroker, RequeueMessageError, type Broker } from '../src/index.ts';
import { amqpUrl, deferred, RawBroker, testLogger, uniqueName, waitFor } from './support.ts';

describe('broker: work-queue consumers', function () {
  this.timeout(20_000);
  const dlx = uniqueName('dlx');
  const queues: string[] = [];
  let broker: Broker;
  let raw: RawBroker;

  const newQueue = (what: string): string => {
    const queue = uniqueName(what);
    queues.push(queue);
    return queue;
  };

  before(async () => {
    raw = await RawBroker.open();
    broker = createBroker({ url: await amqpUrl(), logger: testLogger(), deadLetterExchange: dlx });
    await broker.waitUntilConnected(10_000);
  });

  after(async () => {
    await broker.close();
    await raw.cleanUp(queues, [dlx]);
    await raw.close();
  });

  it('moves a body that is not JSON to <queue>.dead without calling the handler', async () => {
    const queue = newQueue('poison');
    let calls = 0;
    const consumer = await broker.consume(queue, () => {
      calls += 1;
    });
    raw.channel.sendToQueue(queue, Buffer.from('{not json'));
    const dead = await raw.take(`${queue}.dead`);
    expect(dead.content.toString()).to.equal('{not json');
    expect(dead.properties.headers?.['x-first-death-reason']).to.equal('rejected');
    expect(calls).to.equal(0);
    await consumer.stop();
  });

  it('dead-letters a message whose handler throws (no requeue, no retry loop)', async () => {
    const queue = newQueue('failing');
    let calls = 0;
    const consumer = await broker.consume(queue, () => {
      calls += 1;
      throw new Error('handler broke');
    });
    await broker.publish('', queue, { job: 1 });
    const dead = await raw.take(`${queue}.dead`);
    expect(JSON.parse(dead.content.toString())).to.deep.equal({ job: 1 });
    // a marker behind it: job 1 put back in the queue would have come to the handler first
    await broker.publish('', queue, { job: 2 });
    const marker = await raw.take(`${queue}.dead`);
    expect(JSON.parse(marker.content.toString())).to.deep.equal({ job: 2 });
    expect(calls).to.equal(2);
    expect(await raw.messageCount(queue)).to.equal(0);
    await consumer.stop();
  });

  it('has at most `prefetch` messages in flight', async () => {
    const queue = newQueue('prefetch');
    let running = 0;
    let most = 0;
    let done = 0;
    const release = deferred();
    const consumer = await broker.consume(
      queue,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await release.promise;
        running -= 1;
        done += 1;
      },
      { prefetch: 2 },
    );
    await Promise.all(Array.from({ length: 6 }, (_, i) => broker.publish('', queue, { i })));
    await waitFor('two handlers running', () => running === 2);
    // the broker's own count: four not handed out, so no third delivery is on its way
    expect(await raw.messageCount(queue)).to.equal(4);
    expect(running).to.equal(2);
    release.resolve();
    await waitFor('all six handled', () => done === 6);
    expect(most).to.equal(2);
    await consumer.stop();
  });

  it('stop waits for the running handler, which still acks', async () => {
    const queue = newQueue('graceful');
    const release = deferred();
    let started = false;
    let finished = false;
    const consumer = await broker.consume(queue, async () => {
      started = true;
      await release.promise;
      finished = true;
    });
    await broker.publish('', queue, { slow: true });
    await waitFor('the handler to start', () => started);
    let stopped = false;
    const stopping = consumer.stop().then(() => (stopped = true));
    // stop has cancelled the consumer, and still waits for the handler
    await waitFor('the consumer cancelled', async () => (await raw.consumerCount(queue)) === 0);
    expect(stopped).to.equal(false);
    release.resolve();
    await stopping;
    expect(finished).to.equal(true);
    // acked, not requeued by the channel close
    expect(await raw.messageCount(queue)).to.equal(0);
    // and no longer consuming
    expect(await raw.consumerCount(queue)).to.equal(0);
    await broker.publish('', queue, { after: 'stop' });
    expect(await raw.messageCount(queue)).to.equal(1);
  });

  it('puts a message back in its queue when the handler throws RequeueMessageError', async () => {
    const queue = newQueue('requeue');
    const release = deferred();
    const seen: boolean[] = [];
    // the first consumer stops while its handler waits, as a process stopping during an outage
    const first = await broker.consume(queue, async (_body, context) => {
      seen.push(context.redelivered);
      await release.promise;
      throw new RequeueMessageError('stopping; not done');
    });
    await broker.publish('', queue, { job: 'kept' });
    await waitFor('the first handler to start', () => seen.length === 1);
    const stopped = first.stop();
    release.resolve();
    await stopped;
    expect(await raw.messageCount(queue), 'back in the queue').to.equal(1);
    expect(await raw.messageCount(`${queue}.dead`), 'dead-lettered').to.equal(0);
    const bodies: unknown[] = [];
    const second = await broker.consume(queue, (body, context) => {
      seen.push(context.redelivered);
      bodies.push(body);
    });
    await waitFor('the next consumer to take it', () => bodies.length === 1);
    expect(bodies).to.deep.equal([{ job: 'kept' }]);
    expect(seen).to.deep.equal([false, true]);
    await second.stop();
    expect(await raw.messageCount(queue)).to.equal(0);
  });

  it('declares quorum queues when asked and refuses a queue declared otherwise', async () => {
    const queue = newQueue('quorum');
    const consumer = await broker.consume(queue, () => undefined, { queueType: 'quorum' });
    await consumer.stop();
    const err = await broker
      .consume(queue, () => undefined, { queueType: 'classic' })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect(broker.status()).to.equal('up');
    // the broker keeps working after the refused declaration
    await broker.publish('', queue, { still: 'fine' });
  });

  it('consumes a queue an earlier release declared as its former type, and declares new ones as asked', async () => {
    const former = newQueue('former');
    await (await broker.consume(former, () => undefined, { queueType: 'quorum' })).stop();
    const bodies: unknown[] = [];
    const options = { queueType: 'classic', formerQueueType: 'quorum' } as const;
    const consumer = await broker.consume(former, (body) => void bodies.push(body), options);
    await broker.publish('', former, { job: 'left over' });
    await waitFor('the job in the quorum queue', () => bodies.length === 1);
    await consumer.stop();
    const fresh = newQueue('fresh');
    await (await broker.consume(fresh, () => undefined, options)).stop();
    // classic now: a quorum redeclaration is refused
    const err = await broker
      .consume(fresh, () => undefined, { queueType: 'quorum' })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect(broker.status()).to.equal('up');
  });
});
