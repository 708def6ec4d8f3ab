// Decodes a captured image into RGBA pixels: PNG and JPEG with jimp, WebP with libwebp compiled to
// WebAssembly (the packaged binary, loaded from disk: nothing is fetched). CPU work: it runs in the
// quality worker thread, never on the gateway's event loop.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import { Jimp } from 'jimp';
import type { ImageFormat } from './imageHeader.ts';
import type { Bitmap } from './measures.ts';

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

/** The pixels of `bytes`; throws when they do not decode as `format`. */
export async function decodeImage(bytes: Buffer, format: ImageFormat): Promise<Bitmap> {
  if (format === 'webp') {
    await loadWebp();
    const copy = new Uint8Array(bytes).buffer;
    const image = await decodeWebp(copy);
    return { width: image.width, height: image.height, data: image.data };
  }
  const image = await Jimp.read(bytes);
  return { width: image.bitmap.width, height: image.bitmap.height, data: image.bitmap.data };
}
