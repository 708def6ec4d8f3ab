// Generated identity documents with the content the capture checks look for, of an obviously fake
// person: a licence front with a colour portrait, a licence back with its AAMVA PDF417, a passport
// page with a TD3 MRZ in OCR-B (the font bwip-js ships, so no system font is needed).
import { createRequire } from 'node:module';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Jimp } from 'jimp';
import * as PImage from 'pureimage';
import { documentImage, portraitPhoto } from './captureImages.ts';
import { aamva, pdf417Png } from './licences.ts';

type Image = InstanceType<typeof Jimp>;
const require = createRequire(import.meta.url);

// TD3 lines with their check digits worked out by hand; the ICAO 9303 specimen is a public vector.
export const TESTY_MRZ = [
  'P<GBRMCTESTFACE<<TESTY<JANE<<<<<<<<<<<<<<<<<',
  'X532748613GBR8503172F3309128<<<<<<<<<<<<<<02',
];
export const SPECIMEN_MRZ = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

/**
 * A portrait in the box: captureImages' photo-like head and shoulders, scaled to fit, on the pale
 * blue ground of a card photo (a face the capture checks' detector finds, as on a real card).
 */
export function drawPortrait(image: Image, x0: number, y0: number, w: number, h: number): void {
  const fit = Math.min(w / 3, h / 4);
  const [pw, ph] = [Math.round(fit * 3), Math.round(fit * 4)];
  const ground = new Jimp({ width: w, height: h, color: 0xaac8e1ff });
  ground.composite(portraitPhoto([205, 160, 135], pw, ph, 3, 0), Math.round((w - pw) / 2), h - ph);
  image.composite(ground, x0, y0);
}

/** A licence front: documentImage with a colour portrait where its grey block was. */
export function licenceFront(width = 1000, height = 630, seed = 7): Image {
  const image = documentImage(width, height, seed);
  drawPortrait(image, 40, 120, Math.round(width * 0.25), Math.round(height * 0.55));
  return image;
}

/** A licence front whose portrait was cut out: a coloured emblem where the face should be. */
export function licenceFrontWithoutPortrait(width = 1000, height = 630): Image {
  const image = documentImage(width, height, 7);
  const [w, h] = [Math.round(width * 0.25), Math.round(height * 0.55)];
  image.bitmap.data.forEach((_, i, data) => {
    const [x, y] = [(i >> 2) % width, Math.floor(i / 4 / width)];
    if (i % 4 !== 0 || x < 40 || x >= 40 + w || y < 120 || y >= 120 + h) return;
    [data[i], data[i + 1], data[i + 2]] = (x + y) % 40 < 20 ? [40, 110, 170] : [200, 60, 60];
  });
  return image;
}

/** A licence back: documentImage with the AAMVA PDF417 of `text` at its bottom. */
export async function licenceBack(text = aamva(), width = 1000, height = 630): Promise<Image> {
  const image = documentImage(width, height, 13);
  const barcode = await Jimp.read(await pdf417Png(text, 2));
  image.composite(barcode, Math.round((width - barcode.width) / 2), height - barcode.height - 20);
  return image;
}

/**
 * One frame for a fake camera that every capture check of a licence journey passes: a plain card
 * with a portrait in the middle, big enough for a selfie (the same frame serves every side), and
 * the licence PDF417 under it, modules of 3 px so it still reads after a page's JPEG squeeze.
 */
export async function cameraFrame(width = 1280, height = 720): Promise<Image> {
  // a greyer card than documentImage's: a camera's video range brightens the frame by about 8%
  const image = new Jimp({ width, height, color: 0xb4bac2ff });
  drawPortrait(
    image,
    Math.round(width * 0.33),
    24,
    Math.round(width * 0.34),
    Math.round(height * 0.66),
  );
  const barcode = await Jimp.read(await pdf417Png(aamva(), 3));
  image.composite(barcode, Math.round((width - barcode.width) / 2), height - barcode.height - 10);
  return image;
}

/** MRZ lines as black OCR-B text on white, `size` pixels a line, as PNG bytes. */
export async function mrzPng(lines: string[], size = 32): Promise<Buffer> {
  const fontFile = path.join(
    path.dirname(require.resolve('bwip-js/node')),
    '..',
    'fonts',
    'OCRB7.ttf',
  );
  await PImage.registerFont(fontFile, 'OCR-B').load();
  const [width, height] = [Math.ceil(size * 0.75 * 44) + 80, size * (lines.length + 2)];
  const image = PImage.make(width, height);
  const ctx = image.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = `${size}px OCR-B`;
  lines.forEach((line, i) => ctx.fillText(line, 40, size * 1.5 * (i + 1)));
  const chunks: Buffer[] = [];
  const sink = new PassThrough().on('data', (c: Buffer) => chunks.push(c));
  await PImage.encodePNGToStream(image, sink);
  return Buffer.concat(chunks);
}

/** A passport data page: portrait, lines of "text", and the MRZ `lines` along its bottom. */
export async function passportPage(lines: string[] = TESTY_MRZ): Promise<Image> {
  const mrz = await Jimp.read(await mrzPng(lines, 28));
  const width = mrz.width + 60;
  const height = Math.round(width * 0.7);
  const image = documentImage(width, height, 17);
  drawPortrait(image, 40, 120, Math.round(width * 0.25), Math.round(height * 0.45));
  image.composite(mrz, 30, height - mrz.height - 10);
  return image;
}
