// The content checks' parts on generated images and the face-api package's sample photos: the
// faces (one face of several skin tones and sizes accepted; none, two, cut off or too far refused;
// a document's portrait found),
// which side gets which check, the MRZ read from its band with the half page to fall back on, the
// MRZ reader's time limit and queue bound, and a check that overruns its worker thread answering
// check_unavailable, never accepting the image.
import { expect } from 'chai';
import { intToRGBA, Jimp } from 'jimp';
import type { CaptureSide } from '@idv/contracts';
import { detectFaces, type RgbaImage } from '@idv/faces';
import { createOcrEngine, type OcrEngine } from '@idv/docread';
import { createLogger } from '@idv/observability';
import {
  documentImage,
  jpeg,
  landscapeImage,
  lit,
  png,
  portraitPhoto,
  selfieImage,
  SKIN_TONES,
} from '@idv/samples/captureImages';
import {
  drawPortrait,
  licenceBack,
  licenceFront,
  licenceFrontWithoutPortrait,
  passportPage,
  TESTY_MRZ,
} from '@idv/samples/idDocuments';
import { brighter, cutOffSelfie, realSelfie, samplePhoto } from '@idv/samples/realFaces';
import { eventually } from '@idv/testing/eventually';
import { checksFor, imageContentChecks } from '../src/contentChecks.ts';
import { faceProblem } from '../src/faceRules.ts';
import { readImageHeader } from '../src/imageHeader.ts';
import { MRZ_PAGE_SIZE } from '../src/imageTasks.ts';
import { MrzReader } from '../src/mrzReader.ts';
import { QualityPool } from '../src/qualityPool.ts';

type Image = InstanceType<typeof Jimp>;

/** `page` on a card with a hatched strip under it: busy rows below the MRZ, and no text. */
function hatchedUnder(page: Image): Image {
  const card = new Jimp({ width: page.width, height: page.height + 80, color: 0xe8ecf0ff });
  card.composite(page, 0, 0);
  for (let y = page.height + 40; y < page.height + 64; y++)
    for (let x = 100; x < 500; x += 4) card.setPixelColor(0x202020ff, x, y);
  return card;
}

/** A landscape with the selfie shrunk to `width` pixels in it: a face far from the camera. */
function faceFarAway(width: number): Image {
  const scene = landscapeImage(1280, 960);
  scene.composite(selfieImage().resize({ w: width }), 560, 300);
  return scene;
}

/** A licence front with a second, smaller portrait (the ghost image some cards print). */
function withGhostImage(): Image {
  const card = licenceFront();
  drawPortrait(card, 760, 330, 150, 200);
  return card;
}

describe('content checks: faces (SSD MobileNet v1, @idv/faces)', function () {
  this.timeout(60_000);
  // as the face task runs it: any face for a document, every face for a selfie
  const problem = async (side: CaptureSide, { bitmap }: { bitmap: RgbaImage }) =>
    faceProblem(side, await detectFaces(bitmap, { anyFace: side !== 'selfie' }), bitmap)?.code;

  it('accepts one face, light to dark skin, dim or bright, small or large, real or generated', async () => {
    for (const [what, image] of [
      ...SKIN_TONES.map((tone, i) => [`skin tone ${i + 1}`, portraitPhoto(tone)] as const),
      ['dark skin, dim light', lit(portraitPhoto([95, 62, 45]), 0.7)],
      ['small selfie', selfieImage(300, 400)],
      ['large selfie', selfieImage().resize({ w: 1080 })],
      ["real face (the face-api package's sample 1)", await realSelfie(0)],
      ['another real face', await realSelfie(2)],
    ] as const)
      expect(await problem('selfie', image), what).to.equal(undefined);
  });

  it('refuses no face, two people, a face cut off by the edge and one too far away', async () => {
    const wall = new Jimp({ width: 480, height: 640, color: 0xd2aa96ff });
    for (const [what, image, code] of [
      ['empty room', selfieImage(480, 640, 11, false), 'no_face'],
      ['landscape', landscapeImage(), 'no_face'],
      ['skin-coloured wall', wall, 'no_face'],
      ['a real group photo', brighter(await samplePhoto(1), 1.4), 'multiple_faces'],
      ['a real face cut off on the left', await cutOffSelfie(), 'face_cut_off'],
      ['a selfie 260 px wide in a 1280 px scene', faceFarAway(260), 'face_too_small'],
    ] as const)
      expect(await problem('selfie', image), what).to.equal(code);
  });

  it('finds the portrait of a card front and a passport page, and says when there is none', async () => {
    expect(await problem('front', licenceFront())).to.equal(undefined);
    expect(await problem('passport', await passportPage())).to.equal(undefined);
    // a second, smaller face (a ghost image) is no problem on a document
    expect(await problem('front', withGhostImage())).to.equal(undefined);
    expect(await problem('front', licenceFrontWithoutPortrait())).to.equal('no_face');
    expect(await problem('passport', documentImage())).to.equal('no_face');
  });
});

describe('content checks: which side gets which check', () => {
  const face = 'KYC_WITH_FACE_COMPARISON' as const;
  const docs = 'DOCUMENT_VERIFICATION_ONLY' as const;
  it("barcode on a DL or ID back, MRZ on the passport page, a face on the selfie and the face journey's document", () => {
    expect(checksFor('back', { journeyType: docs, documentType: 'DL' })).to.deep.equal(['barcode']);
    expect(checksFor('back', { journeyType: face, documentType: 'IDCARD' })).to.deep.equal([
      'barcode',
    ]);
    expect(checksFor('passport', { journeyType: docs, documentType: 'PASSPORT' })).to.deep.equal([
      'mrz',
    ]);
    expect(checksFor('passport', { journeyType: face, documentType: 'PASSPORT' })).to.deep.equal([
      'mrz',
      'face',
    ]);
    expect(checksFor('selfie', { journeyType: face, documentType: null })).to.deep.equal(['face']);
    expect(checksFor('front', { journeyType: face, documentType: 'DL' })).to.deep.equal(['face']);
    expect(checksFor('front', { journeyType: docs, documentType: 'DL' })).to.deep.equal([]);
  });
});

describe('content checks: bounded, never accepting an unchecked image', function () {
  this.timeout(60_000);
  const logger = createLogger({ service: 'test', level: 'silent' });
  const pool = new QualityPool(1);
  const mrz = new MrzReader({ timeoutMs: 20_000 });
  after(() => Promise.all([pool.close(), mrz.close()]));
  const journey = { journeyType: 'KYC_WITH_FACE_COMPARISON' as const, documentType: 'DL' as const };
  const run = async (timeoutMs: number, side: 'back' | 'passport', bytes: Buffer) =>
    imageContentChecks({ pool, mrz, logger, timeoutMs })({
      side,
      bytes,
      header: readImageHeader(bytes)!,
      journey: side === 'passport' ? { ...journey, documentType: 'PASSPORT' } : journey,
    });

  it('reads the barcode of a licence back and the MRZ of a passport page, noting it', async () => {
    expect(await run(10_000, 'back', await png(await licenceBack()))).to.deep.equal({
      problems: [],
      notes: { barcodeRead: 1 },
    });
    const page = await run(10_000, 'passport', await jpeg(await passportPage()));
    expect(page.problems).to.deep.equal([]);
    expect(page.notes).to.include({ mrzRead: 1, mrzBand: 1 }).and.to.have.property('faceCount', 1);
  });

  it('a page photographed 1.5 degrees askew reads from its levelled band', async () => {
    const page = await passportPage();
    page.rotate({ deg: 1.5, mode: false });
    const askew = await run(10_000, 'passport', await jpeg(page));
    expect(askew.problems).to.deep.equal([]);
    expect(askew.notes).to.include({ mrzRead: 1, mrzBand: 1 });
  });

  it('a page whose band is not its MRZ (a hatched strip under the page) still reads, from the half page', async () => {
    const page = await run(10_000, 'passport', await png(hatchedUnder(await passportPage())));
    expect(page.problems).to.deep.equal([]);
    expect(page.notes).to.include({ mrzRead: 1, mrzBand: 0 });
    const tampered = [TESTY_MRZ[0]!, TESTY_MRZ[1]!.replace('X532748613', 'X532748614')];
    const wrong = await run(10_000, 'passport', await jpeg(await passportPage(tampered)));
    expect(wrong.problems.map((p) => p.code)).to.deep.equal(['mrz_unreadable']);
    expect(wrong.notes).to.include({ mrzRead: 0, mrzBand: 0 });
  });

  it('the MRZ reader reads the images of a page in turn: the first that holds decides', async () => {
    const page = await png(await passportPage());
    const noMrz = await png(documentImage(1000, 700, 17));
    expect(await mrz.check([page, noMrz])).to.deep.equal({ status: 'valid', image: 0 });
    expect(await mrz.check([noMrz, page])).to.deep.equal({ status: 'valid', image: 1 });
    expect(await mrz.check([noMrz])).to.deep.include({ status: 'invalid' });
  });

  it('the OCR gets the MRZ band and the lower half of the page in grey, at most MRZ_PAGE_SIZE wide', async () => {
    const page = await passportPage();
    const images = await pool.run({ task: 'mrzPage' }, await png(page), 'png');
    const half = await Jimp.read(Buffer.from(images.page));
    expect([half.width, half.height]).to.deep.equal([
      page.width,
      page.height - Math.floor(page.height / 2),
    ]);
    const { r, g, b } = intToRGBA(half.getPixelColor(half.width / 2, 10));
    expect(r).to.equal(g).and.to.equal(b);
    // the band: the MRZ's two lines (the bottom 120 px of the page) and a margin, not the half page
    const band = await Jimp.read(Buffer.from(images.band!));
    expect(band.height).to.be.within(60, 160);
    expect(band.width).to.be.within(page.width * 0.8, page.width);
    const large = await passportPage();
    large.resize({ w: 2400 });
    const scaled = await pool.run({ task: 'mrzPage' }, await jpeg(large), 'jpeg');
    expect((await Jimp.read(Buffer.from(scaled.page))).width).to.equal(MRZ_PAGE_SIZE);
    expect((await Jimp.read(Buffer.from(scaled.band!))).width).to.be.at.most(MRZ_PAGE_SIZE);
  });

  it('a barcode check over its time is check_unavailable, never accepted, and the pool goes on', async () => {
    const report = await run(1, 'back', await png(await licenceBack()));
    expect(report.problems.map((p) => p.code)).to.deep.equal(['check_unavailable']);
    expect(report.notes).to.deep.equal({ barcodeUnchecked: 1 });
    const after = await run(10_000, 'back', await png(documentImage(1000, 630, 13)));
    expect(after.problems.map((p) => p.code)).to.deep.equal(['barcode_unreadable']);
  });

  it('an MRZ read over its time comes back unchecked; past its hard limit the engine is replaced', async () => {
    const page = await png(await passportPage());
    let starts = 0;
    const stuck = new MrzReader({
      timeoutMs: 300,
      startEngine: () => {
        starts += 1;
        return starts === 1 ? new Promise<OcrEngine>(() => {}) : createOcrEngine();
      },
    });
    try {
      const started = Date.now();
      expect(await stuck.check(page)).to.deep.include({ status: 'unchecked' });
      expect(Date.now() - started).to.be.below(1_000);
      // the stuck read holds the OCR until its hard limit (3 x 300 ms) ends the engine; until then
      // a check waits its time out in the queue, after it one starts a fresh engine
      const second = await eventually(
        'a check on a fresh engine after the hard limit',
        async () => {
          const outcome = await stuck.check(page);
          return starts === 2 && outcome;
        },
      );
      // a fresh engine's first read (start-up included) may itself overrun 300 ms on busy cores
      expect(['valid', 'unchecked']).to.include(second.status);
    } finally {
      await stuck.close();
    }
  });

  it('reads queued beyond the bound are not made: unchecked at once', async () => {
    const page = await png(await passportPage(TESTY_MRZ));
    const none = new MrzReader({ timeoutMs: 20_000, maxWaiting: 0 });
    expect(await none.check(page)).to.deep.equal({
      status: 'unchecked',
      reason: 'too many MRZ reads waiting',
    });
    await none.close();
    const closed = await none.check(page);
    expect(closed.status).to.equal('unchecked');
  });
});
