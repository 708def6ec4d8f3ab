// Limits on the header alone: bytes of the file, pixels, and decoded bytes with the bit depth
// counted; each refusal carries the HTTP status it stands for (413, 415, 422).
import { expect } from 'chai';
import { toHttpError, errorBody } from '@idv/http';
import { documentImage, jpeg } from '@idv/samples/captureImages';
import { jpegSegment, jpegStuffedDecoy, pngBomb, pngHeaderOnly } from '@idv/samples/craftedImages';
import { admitImage, DEFAULT_IMAGE_LIMITS, ImageRefused } from '../src/index.ts';

function refused(bytes: Buffer, limits = DEFAULT_IMAGE_LIMITS): ImageRefused {
  try {
    admitImage(bytes, limits);
  } catch (err) {
    if (err instanceof ImageRefused) return err;
    throw err;
  }
  throw new Error('admitted');
}

describe('image limits', () => {
  it('refuses the 10000x10000 1-bit PNG bomb (a few KB) by its pixels, at once', () => {
    const bomb = pngBomb();
    expect(bomb.length).to.be.below(20_000);
    const started = process.hrtime.bigint();
    const err = refused(bomb);
    const micros = Number(process.hrtime.bigint() - started) / 1000;
    console.log(
      `      bomb (${bomb.length} bytes) refused on its header in ${Math.round(micros)} µs`,
    );
    expect(err).to.include({ reason: 'over_limit', status: 422 });
    expect(err.message).to.equal(
      'the image is 10000x10000 pixels, over the limit of 50 megapixels',
    );
  });

  it('counts a 16-bit PNG by its bytes: 16-bit RGBA 6000x5000 (240 MB) refused, 8-bit passes', () => {
    const shape = { width: 6000, height: 5000, colourType: 6 };
    const deep = refused(pngHeaderOnly({ ...shape, bitDepth: 16 }));
    expect(deep).to.include({ reason: 'over_limit', status: 422 });
    expect(deep.message).to.equal(
      'the image decodes to 240 MB (6000x5000, 4 channels of 16 bits), over the limit of 200 MB',
    );
    expect(admitImage(pngHeaderOnly({ ...shape, bitDepth: 8 }), DEFAULT_IMAGE_LIMITS)).to.include({
      width: 6000,
      bitsPerChannel: 8,
    });
    expect(
      admitImage(
        pngHeaderOnly({ width: 5000, height: 4000, colourType: 2, bitDepth: 16 }),
        DEFAULT_IMAGE_LIMITS,
      ),
    ).to.include({ channels: 3 });
  });

  it('refuses the FF 00 crafted JPEG over the pixel cap by its true frame', () => {
    expect(refused(jpegStuffedDecoy()).message).to.equal(
      'the image is 8000x6700 pixels, over the limit of 50 megapixels',
    );
  });

  it('refuses a JPEG of over 32 scans (the progressive one that held a decoder), at once; 32 pass', async () => {
    const real = await jpeg(documentImage(320, 200));
    expect(real.subarray(-2).equals(Buffer.from([0xff, 0xd9]))).to.equal(true);
    // a minimal scan: one component, spectral 0-63, one byte of entropy data with a stuffed FF
    const scan = Buffer.concat([
      jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
      Buffer.from([0x12, 0xff, 0x00]),
    ]);
    const withScans = (extra: number) =>
      Buffer.concat([real.subarray(0, -2), ...Array<Buffer>(extra).fill(scan), real.subarray(-2)]);
    expect(admitImage(withScans(31), DEFAULT_IMAGE_LIMITS)).to.include({ width: 320, height: 200 });
    const crafted = withScans(20_000); // ~220 KB of scans
    const started = process.hrtime.bigint();
    const err = refused(crafted);
    console.log(
      `      ${crafted.length} bytes of 20001 scans refused in ${Number(process.hrtime.bigint() - started) / 1000} µs`,
    );
    expect(err).to.include({ reason: 'over_limit', status: 422 });
    expect(err.message).to.equal('the JPEG has more than 32 scans, over the limit of 32');
    expect(refused(withScans(32)).reason).to.equal('over_limit');
  });

  it('maps each refusal to its status and the standard error body', () => {
    const cases: [ImageRefused, number, string][] = [
      [refused(pngBomb(), { ...DEFAULT_IMAGE_LIMITS, maxBytes: 1000 }), 413, 'Payload Too Large'],
      [refused(Buffer.from('GIF89a')), 415, 'Unsupported Media Type'],
      [refused(pngBomb()), 422, 'Unprocessable Entity'],
      [
        refused(pngHeaderOnly({ width: 10, height: 10, bitDepth: 3, colourType: 0 })),
        422,
        'Unprocessable Entity',
      ],
    ];
    for (const [err, statusCode, error] of cases) {
      const { error: http, unexpected } = toHttpError(err, []);
      expect(unexpected).to.equal(false);
      expect(errorBody(http)).to.deep.equal({ statusCode, error, message: err.message });
    }
  });
});
