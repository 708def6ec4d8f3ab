// The format and geometry of an image read from its header alone, strictly, before anything is
// decoded: the media type a sender claims is not trusted, and a small file that would decode to
// billions of pixels or bytes is refused from these figures. PNG, JPEG and WebP only.
import { jpegHeader } from './jpegHeader.ts';
import { pngHeader } from './pngHeader.ts';
import { ImageRefused } from './refusal.ts';
import { webpHeader } from './webpHeader.ts';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** samples per pixel as stored (a palette counts as the 3 colours it stands for) */
  channels: number;
  /** bits per sample as stored: 16-bit PNGs and 12-bit JPEGs decode to two bytes a sample */
  bitsPerChannel: number;
  /** Adam7-interlaced PNG (its decoder inflates without a size bound: see decode.ts) */
  interlaced: boolean;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the first bytes announce; undefined for anything but PNG, JPEG and WebP. */
export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return undefined;
}

const READERS = { png: pngHeader, jpeg: jpegHeader, webp: webpHeader };

/**
 * The header of a PNG, JPEG or WebP image. Throws ImageRefused: `unsupported_type` for any other
 * bytes, `undecodable` when the format's header is malformed.
 */
export function readImageHeader(bytes: Buffer): ImageHeader {
  const format = sniffFormat(bytes);
  if (!format) throw new ImageRefused('unsupported_type', 'not a PNG, JPEG or WebP image');
  return READERS[format](bytes);
}

/**
 * What decoding the image costs, in bytes of pixels as the platform decodes them (RGBA: 4 bytes a
 * pixel, 8 for 16-bit samples), never less than decodedBytes: the unit of a community's image
 * budget. A 1-bit PNG of 7000x7000 stores 6 MB of samples and costs 196 MB to decode.
 */
export function decodeCost(header: ImageHeader): number {
  const perPixel = header.bitsPerChannel > 8 ? 8 : 4;
  return Math.max(decodedBytes(header), header.width * header.height * perPixel);
}

/** Bytes the pixels take decoded as stored: width x height x channels x bytes per channel. */
export function decodedBytes(header: ImageHeader): number {
  return header.width * header.height * header.channels * Math.ceil(header.bitsPerChannel / 8);
}
