// Generated capture images for the session tests: a licence-like card, a selfie-like portrait,
// and their blurred, dark, bright and small variants, as real PNG/JPEG/WebP files. The sandbox
// fixture name (DOC:testy, FACE:testy) rides in a PNG tEXt chunk or a JPEG comment, which the
// provider sandbox reads (services/provider-sandbox/README.md).
import { deflateSync } from 'node:zlib';
import { Jimp } from 'jimp';
import { pngChunk } from './craftedImages.ts';

type Image = InstanceType<typeof Jimp>;

/** A deterministic pseudo-random sequence (xorshift32, in [0, 1)), so every run draws the same images. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

function fill(image: Image, x0: number, y0: number, w: number, h: number, grey: number): void {
  const { width, data } = image.bitmap;
  for (let y = y0; y < Math.min(y0 + h, image.bitmap.height); y++)
    for (let x = x0; x < Math.min(x0 + w, width); x++) {
      const i = (y * width + x) * 4;
      data[i] = grey;
      data[i + 1] = grey;
      data[i + 2] = Math.min(255, grey + 10);
      data[i + 3] = 255;
    }
}

/** A licence-like card: pale ground, a portrait block, lines of dark "text". */
export function documentImage(width = 1000, height = 630, seed = 7): Image {
  const image = new Jimp({ width, height, color: 0xe8ecf0ff });
  const next = random(seed);
  fill(image, 40, 120, Math.round(width * 0.25), Math.round(height * 0.55), 90);
  for (let line = 0; line < 12; line++) {
    const y = 110 + line * Math.round(height / 16);
    for (let x = Math.round(width * 0.33); x < width - 60;) {
      const w = 6 + Math.floor(next() * 30);
      fill(image, x, y, w, 14, 30 + Math.floor(next() * 40));
      x += w + 4 + Math.floor(next() * 10);
    }
  }
  return image;
}

/**
 * A selfie: portraitPhoto's head and shoulders filling the frame, the skin tone following `seed`
 * (an empty room, textured, when `withFace` is false). The face detector of the capture checks
 * finds these faces as it finds real ones.
 */
export function selfieImage(width = 480, height = 640, seed = 11, withFace = true): Image {
  if (withFace) return portraitPhoto(SKIN_TONES[seed % SKIN_TONES.length]!, width, height, seed);
  const image = new Jimp({ width, height, color: 0x8090a0ff });
  const next = random(seed);
  for (let i = 0; i < 400; i++)
    fill(
      image,
      Math.floor(next() * width),
      Math.floor(next() * height),
      8,
      8,
      60 + Math.floor(next() * 120),
    );
  return image;
}

/** Light to dark skin, for the generated faces. */
export const SKIN_TONES: Rgb[] = [
  [225, 185, 160],
  [200, 150, 120],
  [150, 100, 75],
  [95, 62, 45],
];

type Rgb = [number, number, number];

/** ((x-ox)/sx)^2 + ((y-oy)/sy)^2: under 1 inside the ellipse. */
const ellipse = (x: number, y: number, ox: number, oy: number, sx: number, sy: number) =>
  ((x - ox) / sx) ** 2 + ((y - oy) / sy) ** 2;

/**
 * A photo-like head and shoulders of skin `skin`: a face shaded darker to its edges, hair and
 * fringe, eyes with whites and irises, brows, nose shadow, lips, a neck, a shirt, a wall that turns
 * from grey-blue to beige behind them, and sensor noise of amplitude `noise` over everything (0: a
 * printed portrait's flat colours, which keep a PNG small).
 */
export function portraitPhoto(skin: Rgb, width = 720, height = 960, seed = 3, noise = 16): Image {
  const image = new Jimp({ width, height, color: 0x000000ff });
  const next = random(seed);
  const { data } = image.bitmap;
  const [cx, cy, rx, ry] = [width / 2, height * 0.42, width * 0.21, height * 0.2];
  const tone = (k: number): Rgb => [skin[0] * k, skin[1] * k, skin[2] * k];
  const hair: Rgb = [50, 35, 25];
  const pixel = (x: number, y: number): Rgb => {
    const face = ellipse(x, y, cx, cy, rx, ry);
    if (face > 1) {
      if (y > height * 0.72 && ellipse(x, y, cx, height * 1.05, width * 0.48, height * 0.33) <= 1)
        return [40, 60, 110];
      if (ellipse(x, y, cx, cy - ry * 0.25, rx * 1.12, ry * 0.95) <= 1) return hair;
      if (y > cy + ry * 0.6 && y < height * 0.78 && Math.abs(x - cx) < rx * 0.55) return tone(0.85);
      const t = y / height;
      return [120 + t * 60, 130 + t * 40, 140 - t * 30];
    }
    if (y < cy - ry * 0.55) return hair;
    for (const side of [-1, 1]) {
      const [ex, ey] = [cx + side * rx * 0.4, cy - ry * 0.12];
      if (ellipse(x, y, ex, ey, rx * 0.07, ry * 0.07) <= 1) return [45, 35, 30];
      if (ellipse(x, y, ex, ey, rx * 0.17, ry * 0.07) <= 1) return [225, 220, 215];
      if (ellipse(x, y, ex, ey - ry * 0.15, rx * 0.2, ry * 0.03) <= 1) return [60, 40, 30];
    }
    if (Math.abs(x - cx) < rx * 0.08 && y > cy && y < cy + ry * 0.3) return tone(0.8);
    if (ellipse(x, y, cx, cy + ry * 0.5, rx * 0.32, ry * 0.07) <= 1) return [170, 80, 80];
    return tone(1 - 0.25 * face);
  };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const grain = (next() - 0.5) * noise;
      const i = (y * width + x) * 4;
      data[i] = Math.max(0, Math.min(255, r + grain));
      data[i + 1] = Math.max(0, Math.min(255, g + grain));
      data[i + 2] = Math.max(0, Math.min(255, b + grain));
    }
  return image;
}

/** A landscape: blue sky, green and brown fields, texture everywhere; no face, no document. */
export function landscapeImage(width = 640, height = 480, seed = 5): Image {
  const image = new Jimp({ width, height, color: 0x6fa8dcff });
  const next = random(seed);
  const { data } = image.bitmap;
  for (let y = Math.round(height * 0.45); y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const field = Math.floor(x / 90 + y / 70) % 2;
      [data[i], data[i + 1], data[i + 2]] = field ? [90, 140, 60] : [150, 120, 80];
    }
  for (let i = 0; i < 600; i++) {
    const [x, y] = [Math.floor(next() * width), Math.floor(next() * height)];
    fill(image, x, y, 6, 6, 40 + Math.floor(next() * 160));
  }
  return image;
}

/** Every channel multiplied by `factor` (0.2: dark, 3: bright, clipped). */
export function lit(image: Image, factor: number): Image {
  const copy = image.clone();
  const { data } = copy.bitmap;
  for (let i = 0; i < data.length; i += 4)
    for (let c = 0; c < 3; c++) data[i + c] = Math.min(255, Math.round(data[i + c]! * factor));
  return copy;
}

export function blurred(image: Image, radius = 12): Image {
  const copy = image.clone();
  copy.blur(radius);
  return copy;
}

/** PNG bytes; each fixture name becomes a tEXt chunk `fixture`, right after IHDR. */
export async function png(image: Image, ...fixtures: string[]): Promise<Buffer> {
  const bytes = await image.getBuffer('image/png');
  const chunks = fixtures.map((f) => pngChunk('tEXt', Buffer.from(`fixture\0${f}`, 'latin1')));
  return Buffer.concat([bytes.subarray(0, 33), ...chunks, bytes.subarray(33)]);
}

/** JPEG bytes; each fixture name becomes a comment (COM) segment right after SOI. */
export async function jpeg(image: Image, ...fixtures: string[]): Promise<Buffer> {
  const bytes = await image.getBuffer('image/jpeg', { quality: 90 });
  const comments = fixtures.map((f) => {
    const text = Buffer.from(f, 'latin1');
    const head = Buffer.from([0xff, 0xfe, 0, 0]);
    head.writeUInt16BE(text.length + 2, 2);
    return Buffer.concat([head, text]);
  });
  return Buffer.concat([bytes.subarray(0, 2), ...comments, bytes.subarray(2)]);
}

/** A PNG whose IHDR claims `width` x `height` (a decompression bomb's header) over tiny data. */
export function hugePngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let webpEncoder: Promise<void> | undefined;

/** WebP bytes (lossy), encoded by libwebp compiled to WebAssembly (the packaged binary). */
export async function webp(image: Image): Promise<Buffer> {
  const { default: encode, init } = await import('@jsquash/webp/encode.js');
  webpEncoder ??= (async () => {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const path = require.resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm');
    const wasm = (
      globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<never> } }
    ).WebAssembly;
    await init(await wasm.compile(readFileSync(path)));
  })();
  await webpEncoder;
  const { width, height, data } = image.bitmap;
  const pixels = { width, height, data: new Uint8ClampedArray(data), colorSpace: 'srgb' };
  return Buffer.from(await encode(pixels as never, { quality: 90 }));
}
