// 12-megapixel phone photos of the generated documents, made at run time (no large binary in the
// repository): the document scaled up to fill most of a 4000x3000 frame on a textured table, with
// a camera's sensor noise over it all, encoded as JPEG of quality 90, so its size (3-6 MB) and its
// decoding cost are a phone's. The same seed draws the same photo.
import sharp from 'sharp';
import type { Jimp } from 'jimp';
import { random } from '@idv/samples/captureImages';
import { licenceFront, passportPage } from '@idv/samples/idDocuments';

type Image = InstanceType<typeof Jimp>;

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

/** A wooden table: brown bands of varying width and grain, RGB. */
function table(width: number, height: number, next: () => number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  const phase = next() * 10;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const grain = Math.sin(y / 23 + Math.sin(x / 310 + phase) * 3) * 18 + Math.sin(y / 5.3) * 6;
      const i = (y * width + x) * 3;
      pixels[i] = 150 + grain;
      pixels[i + 1] = 105 + grain * 0.8;
      pixels[i + 2] = 70 + grain * 0.5;
    }
  return pixels;
}

/** Sensor noise: each sample moved by about +-`amount` (a sum of three draws, roughly normal). */
function addNoise(pixels: Buffer, amount: number, next: () => number): void {
  for (let i = 0; i < pixels.length; i++) {
    const noise = (next() + next() + next() - 1.5) * amount * 2;
    pixels[i] = Math.max(0, Math.min(255, Math.round(pixels[i]! + noise)));
  }
}

/** `document` scaled to `share` of the frame's width, centred on the table, noised, as JPEG. */
async function photograph(document: Image, share: number, seed: number): Promise<Buffer> {
  const next = random(seed);
  const docWidth = Math.round(PHOTO_WIDTH * share);
  const docHeight = Math.round((document.height * docWidth) / document.width);
  const card = await sharp(await document.getBuffer('image/png'))
    .resize(docWidth, docHeight, { kernel: 'cubic' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const frame = table(PHOTO_WIDTH, PHOTO_HEIGHT, next);
  const [left, top] = [(PHOTO_WIDTH - docWidth) >> 1, (PHOTO_HEIGHT - docHeight) >> 1];
  for (let y = 0; y < docHeight; y++)
    card.copy(
      frame,
      ((top + y) * PHOTO_WIDTH + left) * 3,
      y * docWidth * 3,
      (y + 1) * docWidth * 3,
    );
  addNoise(frame, 10, next);
  return sharp(frame, { raw: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A licence front (with its colour portrait), photographed at 12 MP. */
export async function licenceFrontPhoto(seed = 1): Promise<Buffer> {
  return photograph(licenceFront(1000, 630), 0.8, seed);
}

/** A passport data page (portrait and TD3 MRZ), photographed at 12 MP. */
export async function passportPagePhoto(seed = 2): Promise<Buffer> {
  return photograph(await passportPage(), 0.85, seed);
}
