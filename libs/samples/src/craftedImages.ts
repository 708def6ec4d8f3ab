// Hostile images made byte by byte for the image limits' tests (libs/images): a PNG of any
// geometry and bit depth (a decompression bomb is a 1-bit one of 10000x10000, a few KB), and a
// JPEG whose stuffed FF 00 hid its real frame header from a reader that took it for a segment.
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([head, typed, crc]);
}

export interface PngShape {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA */
  colourType: number;
  interlace?: 0 | 1;
}

const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function ihdr(shape: PngShape): Buffer {
  const body = Buffer.alloc(13);
  body.writeUInt32BE(shape.width, 0);
  body.writeUInt32BE(shape.height, 4);
  body[8] = shape.bitDepth;
  body[9] = shape.colourType;
  body[12] = shape.interlace ?? 0;
  return pngChunk('IHDR', body);
}

/** A whole PNG: IHDR, IDAT (every row filter 0, `row(y)` or zeros), IEND. Not interlaced. */
export function pngFile(shape: PngShape, row?: (y: number) => Buffer): Buffer {
  const rowBytes = Math.ceil((shape.width * SAMPLES[shape.colourType]! * shape.bitDepth) / 8);
  const raw = Buffer.alloc((rowBytes + 1) * shape.height);
  if (row) for (let y = 0; y < shape.height; y++) row(y).copy(raw, y * (rowBytes + 1) + 1);
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(shape),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** IHDR, a token IDAT and IEND: the header of any geometry, cheap to make. */
export function pngHeaderOnly(shape: PngShape, idat = deflateSync(Buffer.alloc(64))): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(shape),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The decompression bomb of the finding: 10000x10000 at 1 bit, grey, all zeros. */
export function pngBomb(): Buffer {
  return pngFile({ width: 10_000, height: 10_000, bitDepth: 1, colourType: 0 });
}

/** A baseline frame header (SOF0) of `width` x `height`, 3 components sampled 4:2:0. */
export function sof0(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff, 0xc0, 0, 17, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return sof;
}

export const SOI = Buffer.from([0xff, 0xd8]);
export const EOI = Buffer.from([0xff, 0xd9]);

/** A segment (marker FF `marker`) holding `body`. */
export function jpegSegment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * SOI, FF 00, the real frame header (8000x6700, 53.6 megapixels), then a comment that holds a
 * decoy frame header of 1000x700. A reader that takes FF 00 for a segment reads the next two
 * bytes (FF C0) as its length and jumps 65,474 bytes onto the decoy; decoders skip FF 00 and
 * read the real one.
 */
export function jpegStuffedDecoy(): Buffer {
  const head = Buffer.concat([SOI, Buffer.from([0xff, 0x00]), sof0(8000, 6700)]);
  const decoyAt = 2 + 2 + 0xffc0;
  const commentData = Buffer.alloc(decoyAt - (head.length + 4) + 19, 0x20);
  sof0(1000, 700).copy(commentData, decoyAt - (head.length + 4));
  return Buffer.concat([head, jpegSegment(0xfe, commentData), EOI]);
}
