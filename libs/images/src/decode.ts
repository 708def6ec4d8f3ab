// Decodes an admitted image into RGBA pixels with sharp (libvips: libjpeg-turbo, libpng, libwebp,
// native code shipped in the @img/sharp-* packages). CPU and memory work: only worker.ts calls it,
// in a pool thread (pool.ts), never on a service's event loop. libvips allocates the pixels outside
// the JS heap, where a thread's resourceLimits do not reach: the limits checked on the header
// (limits.ts) are what bound them, and libvips is held to the same pixel cap. jpeg-js, the pure JS
// decoder before it, took about 10 s and 484 MB for a 12-megapixel phone JPEG; libvips about 0.1 s
// and the 48 MB of its output. Only bytes admitted on our own header (PNG, JPEG or WebP signature
// and a well-formed header within the limits) ever reach it: libvips would read other formats too.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflate } from 'node:zlib';
import sharp from 'sharp';
import type { ImageHeader } from './header.ts';
import type { ImageLimits } from './limits.ts';
import { IDAT, walkChunks } from './pngHeader.ts';
import { ImageRefused } from './refusal.ts';

/** RGBA pixels, 4 bytes each, row by row. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray | Buffer;
}

export interface DecodeOptions {
  /**
   * The longest side wanted: a larger image is scaled down to fit (a JPEG by 1/2, 1/4 or 1/8 while
   * it is decoded, which is most of the saving), aspect kept. Unset: full size.
   */
  maxSide?: number;
}

let libvipsSet = false;

/**
 * No cache of decoded images or operations between calls (a thread serves one image at a time and
 * worker.ts keeps the last one itself), and one libvips thread a decode: the pool's threads are
 * the parallelism, one core each. Both settings are the process's, the same for every thread.
 */
function setLibvips(): void {
  if (libvipsSet) return;
  sharp.cache(false);
  sharp.concurrency(1);
  libvipsSet = true;
}

/** The pixels of `bytes`, whose admitted header is `header`; throws ImageRefused('undecodable'). */
export async function decodeImage(
  bytes: Buffer,
  header: ImageHeader,
  limits: ImageLimits,
  options: DecodeOptions = {},
): Promise<Bitmap> {
  let bitmap: Bitmap;
  try {
    bitmap = await decode(bytes, header, limits, options);
  } catch (err) {
    if (err instanceof ImageRefused) throw err;
    throw new ImageRefused(
      'undecodable',
      `the ${header.format} image does not decode: ${(err as Error).message}`,
    );
  }
  // turned upright by its EXIF orientation, which may swap the sides; a scaled one may round apart
  const [width, height] = fitted(header, options.maxSide);
  const slack = width === header.width && height === header.height ? 0 : 1;
  const near = (a: number, b: number) => Math.abs(a - b) <= slack;
  const upright = near(bitmap.width, width) && near(bitmap.height, height);
  const turned = near(bitmap.width, height) && near(bitmap.height, width);
  if (!upright && !turned)
    throw new ImageRefused(
      'undecodable',
      `decoded ${bitmap.width}x${bitmap.height}, not the ${width}x${height} of its header`,
    );
  return bitmap;
}

/** The size the header's image has once scaled to fit `maxSide` (libvips rounds the same way). */
export function fitted(
  header: Pick<ImageHeader, 'width' | 'height'>,
  maxSide?: number,
): [number, number] {
  const { width, height } = header;
  if (!maxSide || Math.max(width, height) <= maxSide) return [width, height];
  const scale = maxSide / Math.max(width, height);
  return width >= height
    ? [maxSide, Math.max(1, Math.round(height * scale))]
    : [Math.max(1, Math.round(width * scale)), maxSide];
}

async function decode(
  bytes: Buffer,
  header: ImageHeader,
  limits: ImageLimits,
  options: DecodeOptions,
): Promise<Bitmap> {
  if (header.format === 'png') await checkPngDataSize(bytes, header);
  setLibvips();
  let image = sharp(bytes, {
    limitInputPixels: limits.maxPixels,
    // a real photo with a stray byte still reads; bytes that break the format do not
    failOn: 'error',
    autoOrient: true,
  });
  if (options.maxSide)
    image = image.resize({
      width: options.maxSide,
      height: options.maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  const { data, info } = await image
    .toColourspace('srgb') // grey, palette and CMYK alike come out as 3 colours, 8 bits each
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`${info.channels} channels decoded, not RGBA`);
  return { width: info.width, height: info.height, data };
}

/** Adam7 passes: x start, y start, x step, y step (PNG spec 8.2). */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes of filtered rows a PNG's header allows: a filter byte and the packed samples a row. */
export function pngDataBytes(header: ImageHeader): number {
  const row = (columns: number) =>
    1 + Math.ceil((columns * header.channels * header.bitsPerChannel) / 8);
  if (!header.interlaced) return header.height * row(header.width);
  let allowed = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const columns = Math.ceil(Math.max(0, header.width - x0) / dx);
    const rows = Math.ceil(Math.max(0, header.height - y0) / dy);
    if (columns > 0) allowed += rows * row(columns);
  }
  return allowed;
}

/**
 * libpng inflates all of a PNG's data, past the last row too (a 1 MB file of zeros is 1 GB to
 * inflate, 0.1-0.2 s of a core here; a 32 MB file thirty times that, in native code that a
 * thread's time limit does not stop), and reads an interlaced PNG whole before its first row. The data is inflated here
 * first, nothing kept, and stopped as soon as it passes what the header allows.
 */
async function checkPngDataSize(bytes: Buffer, header: ImageHeader): Promise<void> {
  const allowed = pngDataBytes(header);
  const idat: Buffer[] = [];
  walkChunks(bytes, (type, data) => type === IDAT && idat.push(data));
  const inflate = createInflate();
  let inflated = 0;
  const past = new Error('past');
  try {
    await pipeline(
      Readable.from(idat),
      inflate,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          inflated += chunk.length;
          done(inflated > allowed ? past : null);
        },
      }),
    );
  } catch (err) {
    const why =
      err === past
        ? `inflates past the ${allowed} bytes its header allows`
        : (err as Error).message;
    throw new ImageRefused('undecodable', `the PNG's data ${why}`);
  }
}
