// The MRZ band finder on generated pages, without OCR: the band holds the MRZ's lines and not the
// page's text above them; a card without text has none; busy rows under the MRZ are taken for it
// (the read then falls back to the half page: contentChecks.unit.test.ts).
import { expect } from 'chai';
import { Jimp } from 'jimp';
import { documentImage } from '@idv/samples/captureImages';
import { passportPage } from '@idv/samples/idDocuments';
import { bandSlope, cropBand, findMrzBand, levelBand } from '../src/mrzBand.ts';

/** The page's lower half, as the MRZ task looks at it. */
const lowerHalf = (height: number) => Math.floor(height / 2);

describe('capture checks: the MRZ band', () => {
  it('is the MRZ lines of a passport page with a margin, the whole width of its text', async () => {
    const page = await passportPage();
    const band = findMrzBand(page.bitmap, lowerHalf(page.height))!;
    // passportPage sets its two MRZ lines of 28 px OCR-B 10 px above its bottom, baselines 42 px apart
    const [firstBaseline, secondBaseline] = [page.height - 122 + 42, page.height - 122 + 84];
    expect(band.top).to.be.within(firstBaseline - 50, firstBaseline - 20);
    expect(band.bottom).to.be.within(secondBaseline, page.height);
    expect(band.left).to.be.below(70);
    expect(band.right).to.be.above(page.width * 0.85);
  });

  it('keeps to the MRZ when the page is larger, and crops to its own pixels', async () => {
    const page = await passportPage();
    page.resize({ w: 2400 });
    const band = findMrzBand(page.bitmap, lowerHalf(page.height))!;
    expect(band.top).to.be.above(page.height * 0.8);
    const crop = cropBand(page.bitmap, band);
    expect([crop.width, crop.height]).to.deep.equal([
      band.right - band.left,
      band.bottom - band.top,
    ]);
    const at = ((band.top + 5) * page.width + band.left + 5) * 4;
    expect([
      ...crop.data.subarray((5 * crop.width + 5) * 4, (5 * crop.width + 5) * 4 + 4),
    ]).to.deep.equal([...page.bitmap.data.subarray(at, at + 4)]);
  });

  it('none on a plain card; the lowest busy rows, whatever they are, otherwise', () => {
    const plain = new Jimp({ width: 800, height: 500, color: 0xe8ecf0ff });
    expect(findMrzBand(plain.bitmap, 250)).to.equal(undefined);
    // documentImage's bars of "text": a band is found, the OCR then finds no MRZ in it
    const card = documentImage(1000, 700, 17);
    const band = findMrzBand(card.bitmap, 350)!;
    expect(band.bottom - band.top).to.be.below(150);
  });
});

describe('capture checks: the MRZ band levelled', () => {
  const bandOf = async (degrees: number) => {
    const page = await passportPage();
    page.rotate({ deg: degrees, mode: false });
    const band = findMrzBand(page.bitmap, lowerHalf(page.height))!;
    return cropBand(page.bitmap, band);
  };

  it('finds the slope of a page turned a few degrees, none on a level one', async () => {
    expect(bandSlope(await bandOf(0))).to.equal(0);
    // jimp turns anticlockwise: the lines then rise to the right (a negative slope in rows)
    expect(bandSlope(await bandOf(3))).to.be.closeTo(-Math.tan((3 * Math.PI) / 180), 0.01);
    expect(bandSlope(await bandOf(-2))).to.be.closeTo(Math.tan((2 * Math.PI) / 180), 0.01);
  });

  it('levels by moving columns: a level band is left as it is', async () => {
    const level = await bandOf(0);
    expect(levelBand(level, 0)).to.equal(level);
    const turned = await bandOf(3);
    expect(bandSlope(levelBand(turned, bandSlope(turned)))).to.equal(0);
  });
});
