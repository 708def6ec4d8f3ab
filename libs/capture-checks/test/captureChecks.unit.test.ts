// The capture checks: formats and dimensions from the header alone, the local measures (size,
// blur, light) on real PNG, JPEG and WebP images decoded in a worker thread, and a pool that
// outlives a job that overruns.
import { expect } from 'chai';
import {
  blurred,
  documentImage,
  hugePngHeader,
  jpeg,
  lit,
  png,
  selfieImage,
  webp,
} from '@idv/samples/captureImages';
import { captureChecker } from '../src/checkCapture.ts';
import { noContentChecks, type ContentChecks } from '../src/contentChecks.ts';
import { readImageHeader } from '../src/imageHeader.ts';
import { QualityPool } from '../src/qualityPool.ts';

const journey = { journeyType: 'KYC_WITH_FACE_COMPARISON' as const, documentType: 'DL' as const };

describe('capture checks', function () {
  this.timeout(60_000);
  const pool = new QualityPool(1);
  const check = captureChecker(pool, noContentChecks);
  after(() => pool.close());

  it('reads format and size from PNG, JPEG and WebP headers, and nothing from other bytes', async () => {
    const image = documentImage(700, 440);
    expect(readImageHeader(await png(image))).to.deep.equal({
      format: 'png',
      width: 700,
      height: 440,
    });
    expect(readImageHeader(await jpeg(image, 'DOC:testy'))).to.deep.equal({
      format: 'jpeg',
      width: 700,
      height: 440,
    });
    expect(readImageHeader(await webp(image))).to.deep.equal({
      format: 'webp',
      width: 700,
      height: 440,
    });
    expect(readImageHeader(Buffer.from('GIF89a......'))).to.equal(undefined);
    expect(readImageHeader(Buffer.alloc(0))).to.equal(undefined);
  });

  it('accepts sharp, well lit, large enough images in any of the three formats', async () => {
    for (const bytes of [
      await png(documentImage()),
      await jpeg(documentImage()),
      await webp(documentImage()),
    ])
      expect((await check('front', bytes, journey)).problems).to.deep.equal([]);
    expect((await check('selfie', await webp(selfieImage()), journey)).problems).to.deep.equal([]);
  });

  it('names each problem: not an image, too small, blurred, too dark, too bright, too many pixels', async () => {
    const codes = async (side: 'front' | 'selfie', bytes: Buffer) =>
      (await check(side, bytes, journey)).problems.map((p) => p.code);
    expect(await codes('front', Buffer.from('%PDF-1.4 not an image'))).to.deep.equal([
      'not_an_image',
    ]);
    const broken = await png(documentImage());
    expect(
      await codes('front', Buffer.concat([broken.subarray(0, 60), Buffer.alloc(200)])),
      'a PNG that does not decode',
    ).to.deep.equal(['not_an_image']);
    expect(await codes('front', await png(documentImage(600, 380)))).to.deep.equal(['too_small']);
    expect(await codes('selfie', await png(selfieImage(300, 400)))).to.deep.equal([]);
    expect(await codes('front', await jpeg(blurred(documentImage(), 5)))).to.deep.equal([
      'blurred',
    ]);
    expect(await codes('front', await png(lit(documentImage(), 3)))).to.deep.equal(['too_bright']);
    expect(await codes('front', await png(lit(documentImage(), 0.15)))).to.include('too_dark');
    expect(await codes('front', hugePngHeader(100_000, 100_000))).to.deep.equal(['not_an_image']);
  });

  it('runs the content checks (the seam) only on images that passed the local ones', async () => {
    const seen: string[] = [];
    const contentChecks: ContentChecks = async ({ side, header }) => {
      seen.push(`${side}:${header.width}`);
      return {
        problems:
          side === 'back'
            ? [{ code: 'barcode_unreadable', message: 'the barcode does not read' }]
            : [],
        notes: {},
      };
    };
    const withContent = captureChecker(pool, contentChecks);
    expect(
      (await withContent('back', await png(documentImage()), journey)).problems.map((p) => p.code),
    ).to.deep.equal(['barcode_unreadable']);
    expect(
      (await withContent('front', await png(blurred(documentImage(), 5)), journey)).problems.map(
        (p) => p.code,
      ),
    ).to.deep.equal(['blurred']);
    expect(seen).to.deep.equal(['back:1000']);
  });

  it('fails a job that overruns alone, replacing its worker; the checker asks for that image again', async () => {
    const hasty = new QualityPool(1, 1);
    try {
      const bytes = await png(documentImage());
      // every job overruns 1 ms: each fails on its own, none hangs, each on a fresh worker
      const outcomes = await Promise.all(
        [1, 2, 3].map(() =>
          hasty.measure(bytes, 'png').then(
            () => 'measured',
            (err: Error) => err.message,
          ),
        ),
      );
      expect(outcomes).to.deep.equal(Array(3).fill('the image took too long to check'));
      // through the checker: an unmeasured image is never accepted; the person sends it again
      const report = await captureChecker(hasty, noContentChecks)('front', bytes, journey);
      expect(report.problems.map((p) => p.code)).to.deep.equal(['check_unavailable']);
      expect(report).to.not.have.property('measures');
    } finally {
      await hasty.close();
    }
    expect((await pool.measure(await png(documentImage()), 'png')).sharpness).to.be.above(100);
  });
});
