// The capture checks hold every upload to @idv/images' limits before anything decodes it: the
// FF 00 crafted JPEG by its true frame, a 16-bit PNG by its bytes; a 16-bit PNG within them
// decodes; a check's time limit counts its wait in the queue.
import { expect } from 'chai';
import { documentImage, png } from '@idv/samples/captureImages';
import { jpegStuffedDecoy, pngBomb, pngFile, pngHeaderOnly } from '@idv/samples/craftedImages';
import { measureMemory } from '@idv/testing/memoryUse';
import { captureChecker } from '../src/checkCapture.ts';
import { noContentChecks } from '../src/contentChecks.ts';
import { CheckTimedOut, QualityPool, UndecodableImage } from '../src/qualityPool.ts';

const journey = { journeyType: 'KYC_WITH_FACE_COMPARISON' as const, documentType: 'DL' as const };

describe('capture checks: image limits before decoding', function () {
  this.timeout(60_000);

  /** A pool that decodes nothing and counts what reached it. */
  const sent: string[] = [];
  const countingPool = {
    measure: async (_bytes: Buffer, format: string) => {
      sent.push(format);
      throw new UndecodableImage('not decoded in this test');
    },
  } as unknown as QualityPool;
  const check = captureChecker(countingPool, noContentChecks);

  it('refuses the crafted JPEG by its true 8000x6700, the bomb and a 240 MB 16-bit PNG, undecoded', async () => {
    const cases: [string, Buffer, string][] = [
      [
        'FF 00 JPEG',
        jpegStuffedDecoy(),
        'the image is 8000x6700 pixels, over the limit of 50 megapixels',
      ],
      [
        '1-bit PNG bomb',
        pngBomb(),
        'the image is 10000x10000 pixels, over the limit of 50 megapixels',
      ],
      [
        '16-bit RGBA PNG',
        pngHeaderOnly({ width: 6000, height: 5000, bitDepth: 16, colourType: 6 }),
        'the image decodes to 240 MB (6000x5000, 4 channels of 16 bits), over the limit of 200 MB',
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const [report, use] = await measureMemory(() => check('front', bytes, journey));
      console.log(`      ${what}: refused in ${use.elapsedMs} ms, peak +${use.grewMb} MB`);
      expect(report, what).to.deep.equal({ problems: [{ code: 'not_an_image', message }] });
    }
    expect(sent).to.deep.equal([]);
    // the same geometry at 8 bits (120 MB decoded) is within the limits and goes on to decoding
    await check(
      'front',
      pngHeaderOnly({ width: 6000, height: 5000, bitDepth: 8, colourType: 6 }),
      journey,
    );
    expect(sent).to.deep.equal(['png']);
  });

  it('a thread that died or a task that failed answers check_unavailable, logged at warn, never throws', async () => {
    const warned: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => void warned.push(args) };
    for (const failure of [
      new Error('Worker terminated due to reaching memory limit: JS heap out of memory'),
      new TypeError('task blew up'),
    ]) {
      const failing = {
        measure: async () => {
          throw failure;
        },
      } as unknown as QualityPool;
      const report = await captureChecker(
        failing,
        noContentChecks,
        undefined,
        logger,
      )('front', await png(documentImage()), journey);
      expect(report.problems.map((p) => p.code)).to.deep.equal(['check_unavailable']);
      expect(report.header?.format).to.equal('png');
    }
    expect(warned).to.have.length(2);
  });

  it('decodes and measures a 16-bit PNG within the limits', async () => {
    const pool = new QualityPool(1);
    try {
      // 700x440, 16-bit RGB, stripes so it has edges
      const row = (y: number) => Buffer.alloc(700 * 6, y % 20 < 10 ? 0x30 : 0xc0);
      const bytes = pngFile({ width: 700, height: 440, bitDepth: 16, colourType: 2 }, row);
      const report = await captureChecker(pool, noContentChecks)('front', bytes, journey);
      expect(report.header).to.deep.equal({ format: 'png', width: 700, height: 440 });
      expect(report.measures?.luminance).to.be.within(100, 140);
    } finally {
      await pool.close();
    }
  });

  it('a check queued behind another times out on its own limit, the wait included', async () => {
    const pool = new QualityPool(1);
    try {
      // a 12 MP PNG takes the one thread (starting it, then decoding): longer than the queued
      // check's 100 ms, however fast the decoder
      const large = await png(documentImage(4000, 3000, 5));
      const first = pool.measure(large, 'png');
      const started = Date.now();
      const queued = await pool
        .run({ task: 'measure' }, await png(documentImage()), 'png', 100)
        .catch((e: unknown) => e);
      console.log(`      queued check timed out after ${Date.now() - started} ms`);
      expect(queued).to.be.instanceOf(CheckTimedOut);
      // it waited, it did not run: the platform's doing, not the image's
      expect((queued as CheckTimedOut).imageAtFault).to.equal(false);
      expect(Date.now() - started).to.be.below(1500);
      expect((await first).sharpness).to.be.above(40);
    } finally {
      await pool.close();
    }
  });
});
