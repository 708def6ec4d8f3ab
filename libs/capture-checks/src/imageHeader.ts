// The capture's view of an image header: the format and size @idv/images reads strictly from the
// header alone, or undefined for bytes that are no readable PNG, JPEG or WebP.
import { ImageRefused, readImageHeader as readHeader, type ImageFormat } from '@idv/images';

export type { ImageFormat } from '@idv/images';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export function readImageHeader(bytes: Buffer): ImageHeader | undefined {
  try {
    const { format, width, height } = readHeader(bytes);
    return { format, width, height };
  } catch (err) {
    if (err instanceof ImageRefused) return undefined;
    throw err;
  }
}
