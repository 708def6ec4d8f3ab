// PNG header, strictly (PNG spec, 3rd ed., 5.3 and 11.2.1): IHDR first, 13 bytes, its CRC right,
// a valid bit depth for its colour type; then every chunk walked by its length, so a second
// IHDR or a chunk running past the file is refused rather than left to the decoder.
import { crc32 } from 'node:zlib';
import type { ImageHeader } from './header.ts';
import { malformed } from './refusal.ts';

/** Colour type -> [samples per pixel, allowed bit depths]. A palette counts its 3 colours. */
const COLOUR_TYPES: Record<number, [number, number[]]> = {
  0: [1, [1, 2, 4, 8, 16]],
  2: [3, [8, 16]],
  3: [3, [1, 2, 4, 8]],
  4: [2, [8, 16]],
  6: [4, [8, 16]],
};
const MAX_DIMENSION = 2 ** 31 - 1;

const refuse = (why: string) => malformed('PNG', why);

export function pngHeader(bytes: Buffer): ImageHeader {
  if (bytes.length < 33) throw refuse('shorter than its IHDR chunk');
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR')
    throw refuse('the first chunk is not a 13-byte IHDR');
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) throw refuse('IHDR CRC mismatch');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [depth, colourType, compression, filter, interlace] = bytes.subarray(24, 29);
  if (width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION)
    throw refuse(`dimensions ${width}x${height}`);
  const type = COLOUR_TYPES[colourType!];
  if (!type || !type[1].includes(depth!))
    throw refuse(`bit depth ${depth} with colour type ${colourType}`);
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1))
    throw refuse('unknown compression, filter or interlace method');
  walkChunks(bytes);
  return {
    format: 'png',
    width,
    height,
    channels: type[0],
    bitsPerChannel: depth!,
    interlaced: interlace === 1,
  };
}

/** Chunk types as big-endian numbers: compared without making strings, chunk by chunk. */
export const IDAT = 0x49444154;
const IHDR = 0x49484452;
const IEND = 0x49454e44;
/** Real PNGs hold a few to a few thousand chunks (IDAT in 8-64 KB pieces); a file of tiny chunks
 *  must not hold the event loop for its whole length. */
const MAX_CHUNKS = 100_000;

/** Every chunk after IHDR, by its length, up to IEND; `visit` sees each type and data. */
export function walkChunks(bytes: Buffer, visit?: (type: number, data: Buffer) => void): void {
  for (let at = 33, count = 0; ; count++) {
    if (count > MAX_CHUNKS) throw refuse(`over ${MAX_CHUNKS} chunks`);
    if (at + 12 > bytes.length) throw refuse('the chunks end before IEND');
    const length = bytes.readUInt32BE(at);
    if (length > MAX_DIMENSION || at + 12 + length > bytes.length)
      throw refuse(
        `chunk ${JSON.stringify(bytes.toString('latin1', at + 4, at + 8))} runs past the end of the file`,
      );
    if (!isChunkType(bytes, at + 4)) throw refuse('a chunk type that is not four letters');
    const type = bytes.readUInt32BE(at + 4);
    if (type === IHDR) throw refuse('a second IHDR');
    visit?.(type, bytes.subarray(at + 8, at + 8 + length));
    if (type === IEND) return;
    at += 12 + length;
  }
}

/** Four letters, A-Z or a-z, from `at`. */
function isChunkType(bytes: Buffer, at: number): boolean {
  for (let i = at; i < at + 4; i++) if (((bytes[i]! | 0x20) - 0x61) >>> 0 >= 26) return false;
  return true;
}
