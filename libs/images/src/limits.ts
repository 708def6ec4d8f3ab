// What an image may cost before anyone decodes it: bytes of the file, pixels, and bytes of the
// decoded samples (bit depth counts: a 16-bit PNG takes twice the bytes of an 8-bit one). The
// figures come from the header alone (header.ts), so a refusal costs microseconds.
import { decodedBytes, readImageHeader, type ImageHeader } from './header.ts';
import { ImageRefused } from './refusal.ts';

export interface ImageLimits {
  /** bytes of the encoded file */
  maxBytes: number;
  /** width x height */
  maxPixels: number;
  /** width x height x channels x bytes per channel, as stored */
  maxDecodedBytes: number;
}

/** 50 megapixels, and what 50 megapixels of 8-bit RGBA take: any 8-bit image under the pixel cap
 *  passes the byte cap, 16-bit RGBA only up to 25 megapixels. */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxDecodedBytes: 200_000_000,
};

/** The header of `bytes` when the image is within `limits`; otherwise throws ImageRefused. */
export function admitImage(bytes: Buffer, limits: ImageLimits): ImageHeader {
  if (bytes.length > limits.maxBytes)
    throw new ImageRefused(
      'too_large',
      `the image is ${bytes.length} bytes, over the limit of ${limits.maxBytes}`,
    );
  const header = readImageHeader(bytes);
  const { width, height, channels, bitsPerChannel } = header;
  if (width * height > limits.maxPixels)
    throw new ImageRefused(
      'over_limit',
      `the image is ${width}x${height} pixels, over the limit of ${limits.maxPixels / 1e6} megapixels`,
    );
  const decoded = decodedBytes(header);
  if (decoded > limits.maxDecodedBytes)
    throw new ImageRefused(
      'over_limit',
      `the image decodes to ${megabytes(decoded)} MB (${width}x${height}, ${channels} channels of ${bitsPerChannel} bits), over the limit of ${megabytes(limits.maxDecodedBytes)} MB`,
    );
  return header;
}

const megabytes = (bytes: number) => Math.round(bytes / 1e6);
