// Grey PNGs of decoded pixels, for an OCR (tesseract reads PNG files): a band of rows from `top`
// down, scaled down to a width (bilinear, as jimp's resize was, which the MRZ reads were tuned on)
// and encoded by libvips with light compression, since the bytes only cross to the OCR's thread.
// CPU work for a pool thread (worker.ts), like decoding: jimp took 0.5-0.8 s for the lower half of
// a 12 MP page, libvips under 0.1 s.
import sharp from 'sharp';
import type { Bitmap } from './decode.ts';

export interface GreyPngOptions {
  /** the first row kept: the rows above it are left out */
  top?: number;
  /** the width the band is scaled down to, its aspect kept; never enlarged */
  width?: number;
}

/** `bitmap` (RGBA) from row `top` down, grey, one sample a pixel, as PNG bytes. */
export async function greyPng(bitmap: Bitmap, options: GreyPngOptions = {}): Promise<Buffer> {
  const top = Math.min(Math.max(0, options.top ?? 0), bitmap.height - 1);
  const rows = bitmap.data.subarray(top * bitmap.width * 4);
  const raw = { width: bitmap.width, height: bitmap.height - top, channels: 4 as const };
  let image = sharp(rows, { raw });
  if (options.width && options.width < bitmap.width)
    image = image.resize({ width: options.width, kernel: 'linear' });
  return image.removeAlpha().toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
}
