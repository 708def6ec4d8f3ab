// Decodes an admitted image into RGBA pixels: PNG and JPEG with jimp, WebP with libwebp compiled
// to WebAssembly (the packaged binary, loaded from disk: nothing is fetched). CPU and memory
// work: only worker.ts calls it, in a pool thread (pool.ts), never on a service's event loop.
// Decoders allocate their pixels outside the JS heap, where a thread's resourceLimits do not
// reach: the limits checked on the header (limits.ts) are what bound them, and the decoders are
// held to the same figures where they take a bound of their own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import { Jimp } from 'jimp';
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

/** jpeg-js counts its own allocations (4 bytes a sample while decoding, then the RGBA output)
 *  against this: its default, stated, so a 4:4:4 JPEG near the pixel cap is refused by it. */
const JPEG_DECODER_BUDGET_MB = 512;

let webpReady: Promise<void> | undefined;

/** The WebAssembly global (this project's TypeScript libs do not declare it). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: { compile(bytes: Uint8Array): Promise<Parameters<typeof initWebp>[0]> };
  }
).WebAssembly;

function loadWebp(): Promise<void> {
  webpReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm'));
    await initWebp(await wasmApi.compile(wasm));
  })();
  return webpReady;
}

/** The pixels of `bytes`, whose admitted header is `header`; throws ImageRefused('undecodable'). */
export async function decodeImage(
  bytes: Buffer,
  header: ImageHeader,
  limits: ImageLimits,
): Promise<Bitmap> {
  let bitmap: Bitmap;
  try {
    bitmap = await decode(bytes, header, limits);
  } catch (err) {
    if (err instanceof ImageRefused) throw err;
    throw new ImageRefused('undecodable', `the ${header.format} image does not decode: ${(err as Error).message}`); // prettier-ignore
  }
  // jimp turns a JPEG upright by its EXIF orientation, which may swap the sides
  const upright = bitmap.width === header.width && bitmap.height === header.height;
  const turned = bitmap.width === header.height && bitmap.height === header.width;
  if (!upright && !turned)
    throw new ImageRefused('undecodable', `decoded ${bitmap.width}x${bitmap.height}, not the ${header.width}x${header.height} of its header`); // prettier-ignore
  return bitmap;
}

async function decode(bytes: Buffer, header: ImageHeader, limits: ImageLimits): Promise<Bitmap> {
  if (header.format === 'webp') {
    await loadWebp();
    const image = await decodeWebp(new Uint8Array(bytes).buffer);
    return { width: image.width, height: image.height, data: image.data };
  }
  if (header.format === 'png' && header.interlaced) checkInterlacedSize(bytes, header);
  // fromBuffer, not read: read() drops the options of a Buffer
  const image = await Jimp.fromBuffer(bytes, {
    'image/jpeg': {
      maxResolutionInMP: limits.maxPixels / 1e6,
      maxMemoryUsageInMB: JPEG_DECODER_BUDGET_MB,
    },
  });
  return { width: image.bitmap.width, height: image.bitmap.height, data: image.bitmap.data };
}

/** Adam7 passes: x start, y start, x step, y step (PNG spec 8.2). */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const; // prettier-ignore

/**
 * pngjs inflates an interlaced PNG with no bound on the output (a non-interlaced one only up to
 * the size its header gives), so a few MB of IDAT could inflate to gigabytes outside the JS
 * heap. The data is inflated here first, stopped at what the header allows.
 */
function checkInterlacedSize(bytes: Buffer, header: ImageHeader): void {
  let allowed = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const columns = Math.ceil(Math.max(0, header.width - x0) / dx);
    const rows = Math.ceil(Math.max(0, header.height - y0) / dy);
    if (columns > 0) allowed += rows * (1 + Math.ceil((columns * header.channels * header.bitsPerChannel) / 8)); // prettier-ignore
  }
  const idat: Buffer[] = [];
  walkChunks(bytes, (type, data) => type === IDAT && idat.push(data));
  try {
    inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(1, allowed) });
  } catch (err) {
    const why = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? `inflates past the ${allowed} bytes its header allows` : (err as Error).message; // prettier-ignore
    throw new ImageRefused('undecodable', `the interlaced PNG's data ${why}`);
  }
}
