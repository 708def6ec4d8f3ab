// WebP header, strictly (RFC 9649): a RIFF that fits the file, then a VP8 (lossy: key frame and
// start code checked), VP8L (lossless: signature and version checked) or VP8X chunk. VP8X gives
// the canvas; the chunks after it are walked to the image's own bitstream, whose size must be
// the canvas's, as libwebp demands. Animations are refused: the decoder here reads one picture.
import type { ImageHeader } from './header.ts';
import { ImageRefused, malformed } from './refusal.ts';

const refuse = (why: string) => malformed('WebP', why);
const MAX_CHUNKS = 64;

interface Picture {
  width: number;
  height: number;
  alpha: boolean;
}

export function webpHeader(bytes: Buffer): ImageHeader {
  const riffEnd = 8 + (bytes.length >= 8 ? bytes.readUInt32LE(4) : 0);
  if (riffEnd > bytes.length || riffEnd < 20) throw refuse('the RIFF size does not fit the file');
  const first = chunkAt(bytes, 12, riffEnd);
  let picture: Picture;
  if (first.type === 'VP8X') {
    picture = extended(bytes, first.data, first.next, riffEnd);
  } else {
    picture = bitstream(first.type, first.data);
  }
  return {
    format: 'webp',
    width: picture.width,
    height: picture.height,
    channels: picture.alpha ? 4 : 3,
    bitsPerChannel: 8,
    interlaced: false,
  };
}

function chunkAt(bytes: Buffer, at: number, end: number) {
  if (at + 8 > end) throw refuse('a chunk header past the RIFF end');
  const type = bytes.toString('latin1', at, at + 4);
  const size = bytes.readUInt32LE(at + 4);
  if (at + 8 + size > end) throw refuse(`chunk ${JSON.stringify(type)} runs past the RIFF end`);
  return { type, data: bytes.subarray(at + 8, at + 8 + size), next: at + 8 + size + (size & 1) };
}

/** The picture of a VP8 or VP8L chunk. */
function bitstream(type: string, data: Buffer): Picture {
  if (type === 'VP8 ') {
    // frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, 14-bit sizes
    if (data.length < 10) throw refuse('a short VP8 chunk');
    if ((data[0]! & 1) !== 0) throw refuse('the VP8 frame is no key frame');
    if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) throw refuse('no VP8 start code');
    const width = data.readUInt16LE(6) & 0x3fff;
    const height = data.readUInt16LE(8) & 0x3fff;
    if (width === 0 || height === 0) throw refuse(`VP8 frame ${width}x${height}`);
    return { width, height, alpha: false };
  }
  if (type === 'VP8L') {
    // signature 0x2F, then 14 bits width-1, 14 bits height-1, 1 bit alpha, 3 bits version 0
    if (data.length < 5 || data[0] !== 0x2f) throw refuse('no VP8L signature');
    const bits = data.readUInt32LE(1);
    if (bits >>> 29 !== 0) throw refuse('an unknown VP8L version');
    return {
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      alpha: ((bits >>> 28) & 1) === 1,
    };
  }
  throw refuse(`the first chunk is ${JSON.stringify(type)}, not VP8, VP8L or VP8X`);
}

/** VP8X: flags, canvas size (24 bits each, minus one), then the picture's own chunk. */
function extended(bytes: Buffer, data: Buffer, next: number, end: number): Picture {
  if (data.length !== 10) throw refuse('a VP8X chunk not of 10 bytes');
  const flags = data[0]!;
  if (flags & 0x02) throw new ImageRefused('unsupported_type', 'an animated WebP');
  const width = data.readUIntLE(4, 3) + 1;
  const height = data.readUIntLE(7, 3) + 1;
  // the bitstream follows within a few chunks (ICCP, ALPH); many more is no WebP encoder's work
  for (let at = next, count = 0; at < end; count++) {
    if (count >= MAX_CHUNKS) throw refuse(`no VP8 or VP8L chunk in the first ${MAX_CHUNKS}`);
    const chunk = chunkAt(bytes, at, end);
    if (chunk.type === 'VP8 ' || chunk.type === 'VP8L') {
      const own = bitstream(chunk.type, chunk.data);
      if (own.width !== width || own.height !== height)
        throw refuse(`canvas ${width}x${height} holds a ${own.width}x${own.height} bitstream`);
      return { width, height, alpha: (flags & 0x10) !== 0 || own.alpha };
    }
    at = chunk.next;
  }
  throw refuse('no VP8 or VP8L chunk after VP8X');
}
