// Strict headers: JPEG markers as T.81 defines them (a stuffed FF 00 is no segment), PNG IHDR with
// its bit depth and colour type, WebP VP8/VP8L/VP8X; anything else, or a malformed header, refused.
import { expect } from 'chai';
import { Jimp } from 'jimp';
import { documentImage, jpeg, png, webp } from '@idv/samples/captureImages';
import {
  EOI,
  ihdr,
  jpegSegment,
  jpegStuffedDecoy,
  pngChunk,
  pngFile,
  pngHeaderOnly,
  sof0,
  SOI,
} from '@idv/samples/craftedImages';
import { decodeImage } from '../src/decode.ts';
import {
  DEFAULT_IMAGE_LIMITS,
  ImageRefused,
  readImageHeader,
  type RefusalReason,
} from '../src/index.ts';

function refusal(bytes: Buffer): { reason: RefusalReason; message: string } | undefined {
  try {
    readImageHeader(bytes);
    return undefined;
  } catch (err) {
    if (!(err instanceof ImageRefused)) throw err;
    return { reason: err.reason, message: err.message };
  }
}

const geometry = (bytes: Buffer) => {
  const { format, width, height, channels, bitsPerChannel } = readImageHeader(bytes);
  return { format, width, height, channels, bitsPerChannel };
};

describe('image headers', function () {
  this.timeout(30_000);

  it('reads real PNG, JPEG and WebP files as their encoders wrote them', async () => {
    const image = documentImage(700, 440);
    expect(geometry(await png(image))).to.deep.equal({
      format: 'png',
      width: 700,
      height: 440,
      channels: 4,
      bitsPerChannel: 8,
    });
    expect(geometry(await jpeg(image, 'DOC:testy'))).to.deep.equal({
      format: 'jpeg',
      width: 700,
      height: 440,
      channels: 3,
      bitsPerChannel: 8,
    });
    expect(geometry(await webp(image))).to.include({ format: 'webp', width: 700, height: 440 });
    const grey = await new Jimp({ width: 64, height: 48, color: 0x808080ff }).getBuffer(
      'image/jpeg',
    );
    expect(geometry(grey)).to.include({ width: 64, height: 48 });
  });

  describe('JPEG, by the markers of T.81', () => {
    it('a stuffed FF 00 is no segment: the crafted file reads as its true 8000x6700, as the decoder reads it', async () => {
      const crafted = jpegStuffedDecoy();
      // a reader that took FF 00 for a segment jumped onto the 1000x700 decoy
      expect(geometry(crafted)).to.deep.equal({
        format: 'jpeg',
        width: 8000,
        height: 6700,
        channels: 3,
        bitsPerChannel: 8,
      });
      // the decoder agrees: held to 50 megapixels it refuses the frame it found
      const decoded = await Jimp.fromBuffer(crafted, {
        'image/jpeg': { maxResolutionInMP: 50 },
      }).catch((e: Error) => e);
      expect(String(decoded)).to.match(/maxResolutionInMP limit exceeded by 4MP/);
    });

    it('skips fill bytes, RST and TEM markers, and stray bytes between segments', () => {
      const padded = Buffer.concat([
        SOI,
        Buffer.from([0xff, 0xff, 0xff, 0xd3, 0xff, 0x01, 0x17, 0x2a]),
        jpegSegment(0xe0, Buffer.from('JFIF\0')),
        sof0(640, 480),
        EOI,
      ]);
      expect(geometry(padded)).to.include({ width: 640, height: 480 });
    });

    it('ends at the first scan: a second frame header before it is refused', () => {
      const scan = Buffer.concat([
        jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
        Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]),
      ]);
      expect(refusal(Buffer.concat([SOI, sof0(640, 480), scan, EOI]))).to.equal(undefined);
      const second = Buffer.concat([SOI, sof0(640, 480), sof0(9000, 9000), scan, EOI]);
      expect(refusal(second))
        .to.deep.include({ reason: 'undecodable' })
        .and.to.have.property('message')
        .match(/second frame header/);
    });

    it('the decoder is held to the pixel cap too, for a frame header the walk would not see', async () => {
      // a real 640x400 JPEG as if admitted at 320x200 under a cap of 0.2 megapixels: the decoder
      // reads the true frame and refuses it itself
      const seen = {
        format: 'jpeg' as const,
        width: 320,
        height: 200,
        channels: 3,
        bitsPerChannel: 8,
        interlaced: false,
      };
      const limits = { ...DEFAULT_IMAGE_LIMITS, maxPixels: 200_000 };
      const err = await decodeImage(await jpeg(documentImage(640, 400)), seen, limits).catch(
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ImageRefused).and.include({ reason: 'undecodable' });
      expect((err as Error).message).to.match(/Input image exceeds pixel limit/);
    });

    it('a file of nothing but markers is refused after a bounded walk', () => {
      const markers = Buffer.alloc(4 * 2 ** 20);
      for (let i = 0; i < markers.length; i += 2) markers.writeUInt16BE(0xff00, i);
      const bytes = Buffer.concat([SOI, markers, sof0(640, 480), EOI]);
      const started = process.hrtime.bigint();
      expect(refusal(bytes)!.message).to.match(/over 1024 markers/);
      console.log(
        `      4 MB of FF 00 refused in ${Number(process.hrtime.bigint() - started) / 1e6} ms`,
      );
    });

    const malformed: [string, Buffer, RegExp][] = [
      [
        'no frame header',
        Buffer.concat([SOI, jpegSegment(0xfe, Buffer.from('Testy')), EOI]),
        /no frame header/,
      ],
      [
        'a scan before its frame',
        Buffer.concat([
          SOI,
          jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
          sof0(10, 10),
          EOI,
        ]),
        /scan before/,
      ],
      [
        'a DHT whose tables do not fill it',
        Buffer.concat([
          SOI,
          jpegSegment(0xc4, Buffer.concat([Buffer.from([0, 200]), Buffer.alloc(15)])),
          sof0(10, 10),
          EOI,
        ]),
        /FFC4 does not fill/,
      ],
      [
        'a DQT of 16-bit tables in an 8-bit length',
        Buffer.concat([
          SOI,
          jpegSegment(0xdb, Buffer.concat([Buffer.from([0x10]), Buffer.alloc(64)])),
          sof0(10, 10),
          EOI,
        ]),
        /FFDB does not fill/,
      ],
      [
        'a frame header of the wrong length',
        Buffer.concat([SOI, jpegSegment(0xc0, Buffer.from([8, 0, 10, 0, 10, 3, 1, 0x11, 0])), EOI]),
        /3 components in 11 bytes/,
      ],
      ['a frame of height 0 (DNL)', Buffer.concat([SOI, sof0(640, 0), EOI]), /frame 640x0/],
      [
        'a segment past the end',
        Buffer.concat([SOI, Buffer.from([0xff, 0xe1, 0x40, 0x00, 1, 2])]),
        /runs past/,
      ],
    ];
    for (const [what, bytes, message] of malformed)
      it(`refuses ${what}`, () => {
        expect(refusal(bytes)).to.deep.include({ reason: 'undecodable' });
        expect(refusal(bytes)!.message).to.match(message);
      });
  });

  describe('PNG, by its IHDR', () => {
    it('reads bit depth and colour type: channels as decoded, bits as stored', () => {
      const shapes: [number, number, number][] = [
        [0, 1, 1],
        [0, 16, 1],
        [2, 16, 3],
        [3, 4, 3],
        [4, 8, 2],
        [6, 16, 4],
      ];
      for (const [colourType, bitDepth, channels] of shapes)
        expect(
          geometry(pngHeaderOnly({ width: 30, height: 20, bitDepth, colourType })),
          `${colourType}/${bitDepth}`,
        ).to.deep.equal({
          format: 'png',
          width: 30,
          height: 20,
          channels,
          bitsPerChannel: bitDepth,
        });
    });

    const broken = (bytes: Buffer, at: number, value: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = value;
      return copy;
    };
    const good = pngHeaderOnly({ width: 30, height: 20, bitDepth: 8, colourType: 2 });
    const malformed: [string, Buffer, RegExp][] = [
      [
        'a bit depth its colour type does not allow',
        pngHeaderOnly({ width: 30, height: 20, bitDepth: 4, colourType: 2 }),
        /bit depth 4 with colour type 2/,
      ],
      [
        'an unknown colour type',
        pngHeaderOnly({ width: 30, height: 20, bitDepth: 8, colourType: 5 }),
        /colour type 5/,
      ],
      [
        'a width of 0',
        pngHeaderOnly({ width: 0, height: 20, bitDepth: 8, colourType: 2 }),
        /dimensions 0x20/,
      ],
      ['an IHDR whose CRC does not match', broken(good, 17, 0x7f), /CRC/],
      [
        'a second IHDR',
        Buffer.concat([
          good.subarray(0, 33),
          ihdr({ width: 9000, height: 9000, bitDepth: 8, colourType: 2 }),
          pngChunk('IEND', Buffer.alloc(0)),
        ]),
        /second IHDR/,
      ],
      ['chunks cut off before IEND', good.subarray(0, good.length - 12), /end before IEND/],
      ['a chunk that runs past the file', good.subarray(0, 50), /runs past|end before IEND/],
    ];
    for (const [what, bytes, message] of malformed)
      it(`refuses ${what}`, () => {
        expect(refusal(bytes)).to.deep.include({ reason: 'undecodable' });
        expect(refusal(bytes)!.message).to.match(message);
      });

    it('a file of tiny chunks is refused after a bounded walk', () => {
      const tiny = pngChunk('tEXt', Buffer.alloc(0));
      const many = Buffer.concat([
        good.subarray(0, 33),
        ...Array<Buffer>(100_001).fill(tiny),
        good.subarray(33),
      ]);
      const started = process.hrtime.bigint();
      expect(refusal(many)!.message).to.match(/over 100000 chunks/);
      console.log(
        `      100,001 chunks refused in ${Number(process.hrtime.bigint() - started) / 1e6} ms`,
      );
    });

    it('a real 16-bit PNG reads as 16 bits a channel', () => {
      const bytes = pngFile({ width: 8, height: 4, bitDepth: 16, colourType: 2 }, () =>
        Buffer.alloc(48, 0x80),
      );
      expect(geometry(bytes)).to.include({ channels: 3, bitsPerChannel: 16 });
    });
  });

  describe('WebP, by its VP8, VP8L or VP8X chunk', () => {
    const riff = (...chunks: Buffer[]) => {
      const body = Buffer.concat([Buffer.from('WEBP'), ...chunks]);
      const head = Buffer.from('RIFF\0\0\0\0');
      head.writeUInt32LE(body.length, 4);
      return Buffer.concat([head, body]);
    };
    const chunk = (type: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.write(type, 'latin1');
      head.writeUInt32LE(data.length, 4);
      return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
    };
    const vp8 = (w: number, h: number) => {
      const data = Buffer.from([0x10, 0, 0, 0x9d, 0x01, 0x2a, 0, 0, 0, 0]);
      data.writeUInt16LE(w, 6);
      data.writeUInt16LE(h, 8);
      return chunk('VP8 ', data);
    };
    const vp8x = (w: number, h: number, flags = 0) => {
      const data = Buffer.alloc(10);
      data[0] = flags;
      data.writeUIntLE(w - 1, 4, 3);
      data.writeUIntLE(h - 1, 7, 3);
      return chunk('VP8X', data);
    };
    const vp8l = (w: number, h: number, alpha: boolean) => {
      const data = Buffer.alloc(5);
      data[0] = 0x2f;
      data.writeUInt32LE((w - 1) | ((h - 1) << 14) | (alpha ? 1 << 28 : 0), 1);
      return chunk('VP8L', data);
    };

    it('reads lossy, lossless and extended headers, alpha as a fourth channel', () => {
      expect(geometry(riff(vp8(640, 480)))).to.include({ width: 640, height: 480, channels: 3 });
      expect(geometry(riff(vp8l(300, 200, true)))).to.include({
        width: 300,
        height: 200,
        channels: 4,
      });
      expect(
        geometry(riff(vp8x(640, 480, 0x10), chunk('ALPH', Buffer.alloc(3)), vp8(640, 480))),
      ).to.include({ width: 640, channels: 4 });
    });

    it('refuses a canvas that is not the size of its bitstream, an animation, and no key frame', () => {
      expect(refusal(riff(vp8x(100, 100), vp8(16000, 16000)))).to.deep.include({
        reason: 'undecodable',
      });
      expect(refusal(riff(vp8x(100, 100, 0x02)))).to.deep.equal({
        reason: 'unsupported_type',
        message: 'an animated WebP',
      });
      const interFrame = riff(vp8(640, 480));
      interFrame[20] = 0x11;
      expect(refusal(interFrame)!.message).to.match(/no key frame/);
      expect(refusal(riff(vp8(640, 480)).subarray(0, 26))!.message).to.match(/RIFF size/);
    });
  });

  it('refuses other formats as unsupported: GIF, BMP, TIFF, PDF, nothing', () => {
    for (const bytes of [
      Buffer.from('GIF89a......'),
      Buffer.from('BM\0\0\0\0'),
      Buffer.from('II*\0'),
      Buffer.from('%PDF-1.4'),
      Buffer.alloc(0),
    ])
      expect(refusal(bytes)).to.deep.equal({
        reason: 'unsupported_type',
        message: 'not a PNG, JPEG or WebP image',
      });
  });
});
