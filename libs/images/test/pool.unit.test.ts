// The decoding pool: images admitted before they are queued, decoded in threads under
// resourceLimits, a time limit that counts the wait in the queue, and threads replaced when a job
// overruns, runs out of memory or is aborted, while the next jobs are answered.
import { expect } from 'chai';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { documentImage, jpeg, png, webp } from '@idv/samples/captureImages';
import { jpegStuffedDecoy, pngBomb, pngFile, pngHeaderOnly } from '@idv/samples/craftedImages';
import { measureMemory } from '@idv/testing/memoryUse';
import { eventually } from '@idv/testing/eventually';
import {
  DEFAULT_IMAGE_LIMITS,
  ImageJobTimedOut,
  ImagePool,
  ImageRefused,
  readImageHeader,
} from '../src/index.ts';
import type { TestTask } from './taskWorker.ts';

const script = new URL('./taskWorker.ts', import.meta.url);
type Size = { width: number; height: number; bytes: number };
const outcome = (p: Promise<unknown>) =>
  p.then(
    (r) => r,
    (e: unknown) => e,
  );

/**
 * Room for a thread that cannot start to be started again, wrongly, with no job asking. A fixed wait
 * is the only proof: the pool does nothing observable when it rightly does nothing.
 */
const NO_RESTART_MS = 200;

describe('image pool', function () {
  this.timeout(60_000);
  const pools: ImagePool<TestTask>[] = [];
  const pool = (options: Partial<ConstructorParameters<typeof ImagePool>[0]> = {}) => {
    const made = new ImagePool<TestTask>({
      script,
      threads: 1,
      limits: DEFAULT_IMAGE_LIMITS,
      timeoutMs: 20_000,
      ...options,
    });
    pools.push(made);
    return made;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('decodes PNG, JPEG, WebP and 16-bit PNG to RGBA in a thread', async () => {
    const images = pool();
    const card = documentImage(320, 200);
    for (const bytes of [await png(card), await jpeg(card), await webp(card)])
      expect(await images.run<Size>({ task: 'size' }, bytes)).to.deep.equal({
        width: 320,
        height: 200,
        bytes: 320 * 200 * 4,
      });
    const deep = pngFile({ width: 40, height: 30, bitDepth: 16, colourType: 6 }, () =>
      Buffer.alloc(320, 0x7f),
    );
    expect(await images.run<Size>({ task: 'size' }, deep)).to.deep.equal({
      width: 40,
      height: 30,
      bytes: 40 * 30 * 4,
    });
  });

  it('turns a JPEG upright by its EXIF orientation, and scales to the working size a task asks', async () => {
    const images = pool();
    const card = await sharp(await jpeg(documentImage(640, 400)))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(await images.run<Size>({ task: 'size' }, card)).to.deep.equal({
      width: 400,
      height: 640,
      bytes: 400 * 640 * 4,
    });
    expect(await images.run<Size>({ task: 'size', maxSide: 320 }, card)).to.deep.equal({
      width: 200,
      height: 320,
      bytes: 200 * 320 * 4,
    });
    const small = await png(documentImage(300, 200));
    expect(await images.run<Size>({ task: 'size', maxSide: 320 }, small)).to.include({
      width: 300,
      height: 200,
    });
  });

  it('makes a grey PNG of a band of rows, scaled down to a width', async () => {
    const images = pool();
    const grey = Buffer.from(
      await images.run<Uint8Array>(
        { task: 'grey', top: 100, width: 160 },
        await jpeg(documentImage(640, 400)),
      ),
    );
    expect(readImageHeader(grey)).to.include({
      format: 'png',
      width: 160,
      height: 75,
      channels: 1,
      bitsPerChannel: 8,
    });
  });

  it('refuses the bomb, the FF 00 JPEG and the deep PNG before queueing: no thread, no memory', async () => {
    // a script that cannot start: a refused image must never need a thread
    const never = pool({ script: new URL('./no-such-script.ts', import.meta.url) });
    const hostile: [string, Buffer][] = [
      ['1-bit PNG bomb 10000x10000', pngBomb()],
      ['FF 00 JPEG 8000x6700', jpegStuffedDecoy()],
      [
        '16-bit RGBA PNG 6000x5000',
        pngHeaderOnly({ width: 6000, height: 5000, bitDepth: 16, colourType: 6 }),
      ],
    ];
    for (const [what, bytes] of hostile) {
      const [err, use] = await measureMemory(() => outcome(never.run({ task: 'size' }, bytes)));
      console.log(
        `      ${what}: refused in ${use.elapsedMs} ms, rss ${use.beforeMb} MB, peak +${use.grewMb} MB`,
      );
      expect(err, what).to.be.instanceOf(ImageRefused).and.include({ reason: 'over_limit' });
      expect(use.grewMb, what).to.be.below(20);
    }
  });

  it('counts the wait in the queue: a job queued behind a long one times out on time', async () => {
    const images = pool({ threads: 1 });
    const bytes = await png(documentImage(64, 40));
    await images.run({ task: 'size' }, bytes); // the thread is up
    const started = Date.now();
    const long = images.run({ task: 'sleep', ms: 1500 }, bytes, { timeoutMs: 10_000 });
    const [queued, use] = await measureMemory(() =>
      outcome(images.run({ task: 'size' }, bytes, { timeoutMs: 300 })),
    );
    const after = Date.now() - started;
    console.log(
      `      queued job timed out after ${after} ms (${(queued as ImageJobTimedOut).queuedMs} ms queued), peak +${use.grewMb} MB`,
    );
    expect(queued).to.be.instanceOf(ImageJobTimedOut);
    expect(queued).to.include({ started: false }).and.to.have.property('queuedMs').at.least(290);
    expect(after).to.be.below(1200); // not 1500 + its own run
    expect(await long).to.include({ width: 64 });
  });

  it('replaces a thread whose job overruns; the next job is answered', async () => {
    const images = pool({ threads: 1 });
    const bytes = await png(documentImage(64, 40));
    await images.run({ task: 'size' }, bytes); // the thread is up: the job starts at once
    const err = await outcome(images.run({ task: 'sleep', ms: 5000 }, bytes, { timeoutMs: 300 }));
    expect(err).to.be.instanceOf(ImageJobTimedOut);
    expect(err).to.include({ started: true }).and.to.have.property('queuedMs').below(300);
    expect(await images.run({ task: 'size' }, bytes)).to.include({ width: 64 });
  });

  it('a warm pool starts its threads at once and replaces a retired one before a job needs it', async () => {
    const images = pool({ threads: 2, warm: true });
    expect(images.threadCount).to.equal(2);
    const bytes = await png(documentImage(64, 40));
    const err = await outcome(images.run({ task: 'sleep', ms: 5000 }, bytes, { timeoutMs: 300 }));
    expect(err).to.be.instanceOf(ImageJobTimedOut);
    expect(images.threadCount).to.equal(2);
    // a script that cannot start is not restarted over and over: only when a job needs a thread
    const never = pool({
      script: new URL('./no-such-script.ts', import.meta.url),
      threads: 2,
      warm: true,
    });
    expect(never.threadCount).to.equal(2);
    await eventually('the threads that cannot start gone', () => never.threadCount === 0, {
      intervalMs: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, NO_RESTART_MS));
    expect(never.threadCount).to.equal(0);
  });

  it('a thread out of its heap (resourceLimits) fails its job as over the limit, not the process', async () => {
    const images = pool({
      threads: 1,
      resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
    });
    const bytes = await png(documentImage(64, 40));
    const [err, use] = await measureMemory(() => outcome(images.run({ task: 'hog' }, bytes)));
    console.log(`      heap hog stopped in ${use.elapsedMs} ms, peak +${use.grewMb} MB`);
    expect(err).to.be.instanceOf(ImageRefused).and.include({ reason: 'over_limit' });
    expect(await images.run({ task: 'size' }, bytes)).to.include({ width: 64 });
  });

  it('an abort drops a queued job and stops a running one', async () => {
    const images = pool({ threads: 1 });
    const bytes = await png(documentImage(64, 40));
    const running = new AbortController();
    const queued = new AbortController();
    const first = outcome(
      images.run({ task: 'sleep', ms: 5000 }, bytes, { signal: running.signal }),
    );
    const second = outcome(images.run({ task: 'size' }, bytes, { signal: queued.signal }));
    queued.abort(new Error('deadline of the second'));
    running.abort(new Error('deadline of the first'));
    expect(String(await second)).to.contain('deadline of the second');
    expect(String(await first)).to.contain('deadline of the first');
    expect(await images.run({ task: 'size' }, bytes)).to.include({ width: 64 });
  });

  it('refuses a PNG, interlaced or not, whose data inflates past what its header allows', async () => {
    // libpng would inflate it all (past the last row too): 1 GB from a 1 MB file, in native code
    const images = pool({ threads: 1 });
    await images.run({ task: 'size' }, await png(documentImage(64, 40))); // the thread is up
    const data = deflateSync(Buffer.alloc(64 * 2 ** 20), { level: 9 });
    for (const interlace of [0, 1] as const) {
      const shape = { width: 64, height: 64, bitDepth: 8, colourType: 2, interlace };
      const inflating = pngHeaderOnly(shape, data);
      const [err, use] = await measureMemory(() =>
        outcome(images.run({ task: 'size' }, inflating)),
      );
      console.log(
        `      PNG, interlace ${interlace} (${inflating.length} bytes -> 64 MB) refused in ${use.elapsedMs} ms, peak +${use.grewMb} MB`,
      );
      expect(err).to.be.instanceOf(ImageRefused).and.include({ reason: 'undecodable' });
      expect((err as Error).message).to.match(/inflates past the \d+ bytes its header allows/);
    }
  });

  it("a job out of time is the image's doing only when it ran most of its limit, a second at least", () => {
    // waited for a thread the whole time, or most of it: the platform's doing, free to send again
    expect(new ImageJobTimedOut(20_000, 20_000, false).imageAtFault).to.equal(false);
    expect(new ImageJobTimedOut(20_000, 15_000, true).imageAtFault).to.equal(false);
    // ran its 20 s on the image: the retake counts
    expect(new ImageJobTimedOut(20_000, 200, true).imageAtFault).to.equal(true);
    expect(new ImageJobTimedOut(5_000, 2_000, true).imageAtFault).to.equal(true);
    // a limit of a few ms judges nothing
    expect(new ImageJobTimedOut(1, 0, true).imageAtFault).to.equal(false);
    expect(new ImageJobTimedOut(1500, 600, true).imageAtFault).to.equal(false);
  });
});
