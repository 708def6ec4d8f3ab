// The capture-check worker over real RabbitMQ, as a gateway reaches it: a request with a sealed
// image gets the engine's verdict; a request past its deadline is not checked; one that does not
// open gets an error reply and the worker goes on; a community over its share of the worker is
// answered check_unavailable at once while another community's check runs. And the gateway's
// side (remoteChecks.ts): no worker answering, or no queue at all, is check_unavailable, never an
// accepted image; the image on the queue is sealed, not the plain bytes. The heavy lane: costly
// images checked in a process of the worker's own at nice 19, started again after it died.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import amqp from 'amqplib';
import { createBroker, RpcRemoteError, type Broker } from '@idv/broker';
import { CheckAdmission } from '@idv/capture-checks';
import { CaptureCheckReply, validate, type CaptureCheckRequest } from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { eventually } from '@idv/testing/eventually';
import { blurred, documentImage, hugePngHeader, png } from '@idv/samples/captureImages';
import { remoteCaptureChecker } from '../../docverify-gateway/src/capture/remoteChecks.ts';
import { startCaptureChecker, type RunningChecker } from '../src/start.ts';

const journey = { journeyType: 'DOCUMENT_VERIFICATION_ONLY' as const, documentType: 'DL' as const };
const logger = createLogger({ service: 'test', level: 'silent' });

describe('capture checker', function () {
  this.timeout(120_000);
  const masterKey = randomBytes(32);
  const box = createSecretBox(masterKey);
  const queue = `test.capture.${randomBytes(4).toString('hex')}`;
  const idle = `test.capture.idle.${randomBytes(4).toString('hex')}`;
  let amqpUrl: string;
  let checker: RunningChecker;
  let client: Broker;

  before(async () => {
    amqpUrl = await testAmqpUrl();
    checker = await startCaptureChecker({
      AMQP_URL: amqpUrl,
      MASTER_KEY: masterKey.toString('base64'),
      LOG_LEVEL: 'silent',
      CAPTURE_CHECK_QUEUE: queue,
      CAPTURE_CHECK_THREADS: '2',
    });
    client = createBroker({ url: amqpUrl, logger });
    await Promise.all([checker.broker, client].map((b) => b.waitUntilConnected(15_000)));
  });

  after(async () => {
    await client?.close();
    await checker?.stop();
    await deleteQueues(amqpUrl, [queue, idle]);
  });

  const request = (image: Buffer, over: Partial<CaptureCheckRequest> = {}): CaptureCheckRequest => {
    const checkId = randomUUID();
    return {
      checkId,
      side: 'front',
      journey,
      owner: { sessionId: randomUUID(), communityId: 'community-a', tenantId: 'tenant-a' },
      deadline: Date.now() + 60_000,
      image: box.sealBytes(image, checkId).toString('base64'),
      ...over,
    };
  };
  const ask = async (body: CaptureCheckRequest) => {
    const reply = validate(
      CaptureCheckReply,
      await client.request(queue, body, { timeoutMs: 60_000 }),
    );
    if (!reply.ok) throw new Error(JSON.stringify(reply.issues));
    return reply.value;
  };
  const codes = (reply: CaptureCheckReply) => reply.problems.map((p) => p.code);

  it("answers the engine's verdict: a sharp document accepted with its measures, a blurred one refused", async () => {
    const sharp = await ask(request(await png(documentImage(1000, 630, 3))));
    expect(sharp.problems).to.deep.equal([]);
    expect(sharp.measures?.sharpness).to.be.above(40);
    const soft = await ask(request(await png(blurred(documentImage(1000, 630, 3)))));
    expect(codes(soft)).to.deep.equal(['blurred']);
  });

  it('a request past its deadline is not checked: check_unavailable', async () => {
    const late = await ask(
      request(await png(documentImage(1000, 630, 4)), { deadline: Date.now() - 1 }),
    );
    expect(codes(late)).to.deep.equal(['check_unavailable']);
    expect(late.measures).to.equal(undefined);
  });

  it('an image sealed under another key, or a request out of contract, gets an error reply; the worker goes on', async () => {
    const other = createSecretBox(randomBytes(32));
    const checkId = randomUUID();
    const foreign = request(Buffer.from('x'), {
      checkId,
      image: other.sealBytes(await png(documentImage()), checkId).toString('base64'),
    });
    let failure: unknown;
    await client
      .request(queue, foreign, { timeoutMs: 30_000 })
      .catch((err: unknown) => (failure = err));
    expect(failure).to.be.instanceOf(RpcRemoteError);
    expect((failure as Error).message).to.match(/does not open/);
    failure = undefined;
    await client
      .request(queue, { ...request(Buffer.from('x')), side: 'elbow' }, { timeoutMs: 30_000 })
      .catch((err: unknown) => (failure = err));
    expect((failure as Error).message).to.match(/invalid capture check request/);
    expect((await ask(request(await png(documentImage(1000, 630, 5))))).problems).to.deep.equal([]);
  });

  it("a tenant's check over its share waits for it, one at most; past that busy at once; another tenant's runs", async () => {
    // two threads: the worker holds four checks; a tenant runs one and may have one waiting
    const large = await png(documentImage(4000, 3000, 6));
    const a = (communityId: string) => ({
      owner: { sessionId: randomUUID(), communityId, tenantId: 'tenant-a' },
    });
    // sent at once, taken in order: the first runs, the second waits for it, the third (another
    // community of the same tenant) is over the share with one waiting already
    const first = ask(request(large, a('community-a')));
    const second = ask(request(large, a('community-a')));
    const third = ask(request(large, a('community-c')));
    expect(codes(await third)).to.deep.equal(['check_unavailable']);
    const other = await ask(
      request(await png(documentImage(1000, 630, 8)), {
        owner: { sessionId: randomUUID(), communityId: 'community-b', tenantId: 'tenant-b' },
      }),
    );
    expect(other.problems).to.deep.equal([]);
    // the one that waited ran once the first was done: a real verdict, not check_unavailable
    expect((await first).problems).to.deep.equal([]);
    expect((await second).problems).to.deep.equal([]);
    expect((await second).measures?.sharpness).to.be.above(40);
  });

  describe("the gateway's side", () => {
    const remote = (to: string, waitMs: number) =>
      remoteCaptureChecker({
        broker: client,
        box,
        queue: to,
        waitMs,
        tenantOf: async () => 'tenant-a',
        admission: new CheckAdmission({ perTenant: 4, perCommunity: 4, total: 8 }),
        logger,
      });
    const owner = () => ({ sessionId: randomUUID(), communityId: 'community-a' });

    it('checks through the worker; a bomb or a tiny image is answered without it', async () => {
      const check = remote(queue, 30_000);
      const report = await check('front', await png(documentImage(1000, 630, 9)), journey, owner());
      expect(report.problems).to.deep.equal([]);
      expect(report.header).to.deep.equal({ format: 'png', width: 1000, height: 630 });
      const tiny = await check('front', await png(documentImage(200, 120, 9)), journey, owner());
      expect(codes(tiny)).to.deep.equal(['too_small']);
      const bomb = await check('front', hugePngHeader(20_000, 20_000), journey, owner());
      expect(codes(bomb)).to.deep.equal(['not_an_image']);
    });

    it('no queue to send to: check_unavailable at once; a queue nobody consumes: check_unavailable after the wait', async () => {
      const image = await png(documentImage(1000, 630, 10));
      const none = await remote(`test.capture.none.${randomBytes(4).toString('hex')}`, 30_000)(
        'front',
        image,
        journey,
        owner(),
      );
      expect(codes(none)).to.deep.equal(['check_unavailable']);
      expect(none.problems[0]?.message).to.match(/not reachable/);
      const connection = await amqp.connect(amqpUrl);
      try {
        const channel = await connection.createChannel();
        await channel.assertQueue(idle, { durable: false });
        const waiting = remote(idle, 2000)('front', image, journey, owner());
        // what waits on the queue: the request, its image sealed (not the PNG's bytes)
        const message = await eventually(
          'the request on the queue',
          async () => (await channel.get(idle, { noAck: true })) || undefined,
        );
        const content = message.content;
        expect(content.includes(image.subarray(0, 48).toString('base64'))).to.equal(false);
        expect(content.includes(image.subarray(0, 48))).to.equal(false);
        const waited = await waiting;
        expect(codes(waited)).to.deep.equal(['check_unavailable']);
        expect(waited.problems[0]?.message).to.match(/in time/);
      } finally {
        await connection.close();
      }
    });
  });

  describe('the heavy lane', () => {
    const heavyQueue = `test.capture.heavy.${randomBytes(4).toString('hex')}`;
    let heavy: RunningChecker;
    before(async () => {
      heavy = await startCaptureChecker({
        AMQP_URL: amqpUrl,
        MASTER_KEY: masterKey.toString('base64'),
        LOG_LEVEL: 'silent',
        CAPTURE_CHECK_QUEUE: heavyQueue,
        CAPTURE_CHECK_THREADS: '1',
        // 2 MB: a 1000x630 image (2.5 MB decoded) is heavy here, an 800x500 one (1.6 MB) is not
        CAPTURE_HEAVY_CHECK_MB: '2',
      });
      await heavy.broker.waitUntilConnected(15_000);
    });
    after(async () => {
      await heavy?.stop();
      await deleteQueues(amqpUrl, [heavyQueue]);
    });
    const askHeavy = async (image: Buffer) => {
      const reply = validate(
        CaptureCheckReply,
        await client.request(heavyQueue, request(image), { timeoutMs: 60_000 }),
      );
      if (!reply.ok) throw new Error(JSON.stringify(reply.issues));
      return reply.value;
    };
    /** each thread of `pid`: its name and nice value (field 19 of /proc/PID/task/TID/stat) */
    const threadsOf = (pid: number) =>
      readdirSync(`/proc/${pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        return { name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
      });

    it('checks the costly images in a process of its own at nice 19, with the same verdicts', async () => {
      const small = await askHeavy(await png(documentImage(800, 500, 3)));
      expect(small.problems).to.deep.equal([]);
      expect(heavy.heavyLane?.pid, 'no lane before a costly image').to.equal(undefined);
      const sharp = await askHeavy(await png(documentImage(1000, 630, 3)));
      expect(sharp.problems).to.deep.equal([]);
      expect(sharp.measures?.sharpness).to.be.above(40);
      const soft = await askHeavy(await png(blurred(documentImage(1000, 630, 3))));
      expect(codes(soft)).to.deep.equal(['blurred']);
      const pid = heavy.heavyLane?.pid;
      expect(pid).to.be.a('number');
      // every thread: the main one, libuv's (libvips decodes there, started by whichever thread
      // first needed one), libvips's own, its image thread, V8's
      const threads = threadsOf(pid!);
      expect(threads.some((t) => t.name === 'libuv-worker')).to.equal(true);
      expect(threads.filter((t) => t.nice !== 19)).to.deep.equal([]);
    });

    it('a lane that died is started again by the next costly image; its checks meanwhile are check_unavailable', async () => {
      const pid = heavy.heavyLane!.pid!;
      const image = await png(documentImage(1000, 630, 5));
      const waiting = askHeavy(image);
      process.kill(pid, 'SIGKILL');
      const lost = await waiting;
      // killed before or while it checked: never accepted unchecked
      if (lost.problems.length > 0) expect(codes(lost)).to.deep.equal(['check_unavailable']);
      const again = await eventually('a new lane', async () => {
        const reply = await askHeavy(image);
        return reply.problems.length === 0 ? reply : undefined;
      });
      expect(again.measures?.sharpness).to.be.above(40);
      expect(heavy.heavyLane?.pid).to.not.equal(pid);
    });
  });
});
