// Real faces for the face checks, never committed: the sample photos the face-api package ships
// (@vladmandic/face-api/demo/sample1-6.jpg, group photos of 3-5 people), read from node_modules at
// run time, and selfie-like crops of them made here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Jimp } from 'jimp';

type Image = InstanceType<typeof Jimp>;
const require = createRequire(import.meta.url);

export const SAMPLE_PHOTOS = [1, 2, 3, 4, 5, 6] as const;
export type SamplePhoto = (typeof SAMPLE_PHOTOS)[number];

/** The bytes of the package's sample photo `n` (a 1920 px wide JPEG). */
export function samplePhotoBytes(n: SamplePhoto): Buffer {
  const dir = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
  return readFileSync(path.join(dir, 'demo', `sample${n}.jpg`));
}

export async function samplePhoto(n: SamplePhoto): Promise<Image> {
  return (await Jimp.read(samplePhotoBytes(n))) as Image;
}

/** Where three faces are in sample 1 (pixels of the 1920x1280 photo, found once by eye and SSD). */
export const SAMPLE1_FACES = [
  { x: 414, y: 354, width: 176, height: 240 },
  { x: 836, y: 418, width: 188, height: 229 },
  { x: 1476, y: 199, width: 203, height: 240 },
] as const;

/**
 * A selfie-like crop around face `face` of sample 1, at the photo's own resolution: the face in
 * the middle, 3 face widths across and 3/4 as wide as tall, lit 1.4 times (the photo is dim for
 * the capture checks' light measure). `shift` moves the crop (in face widths) to cut the face off
 * at an edge.
 */
export async function realSelfie(face: 0 | 2 = 0, shift = 0): Promise<Image> {
  const box = SAMPLE1_FACES[face]!;
  const photo = await samplePhoto(1);
  const w = Math.round(box.width * 3);
  const h = Math.round(w * (4 / 3));
  const x = Math.max(0, Math.round(box.x + box.width / 2 - w / 2 + shift * box.width));
  const y = Math.max(0, Math.round(box.y + box.height / 2 - h * 0.45));
  const crop = photo.crop({
    x,
    y,
    w: Math.min(w, photo.width - x),
    h: Math.min(h, photo.height - y),
  });
  return brighter(crop as Image, 1.4);
}

/** Face 2 of sample 1 (the rightmost) with its left third cut off by the picture's edge. */
export async function cutOffSelfie(): Promise<Image> {
  const box = SAMPLE1_FACES[2];
  const photo = await samplePhoto(1);
  const x = Math.round(box.x + box.width * 0.3);
  const y = Math.round(box.y - box.height * 0.6);
  const crop = photo.crop({ x, y, w: photo.width - x, h: Math.round(box.height * 2.4) });
  return brighter(crop as Image, 1.4);
}

/** Every channel times `factor`, clipped. */
export function brighter(image: Image, factor: number): Image {
  const { data } = image.bitmap;
  for (let i = 0; i < data.length; i += 4)
    for (let c = 0; c < 3; c++) data[i + c] = Math.min(255, Math.round(data[i + c]! * factor));
  return image;
}

/**
 * A card front carrying face `face` of sample 1 as its portrait: a tighter crop of the face, 260 px
 * wide, its colour faded (a printed portrait), on a pale 1000x630 card.
 */
export async function realPortraitCard(face: 0 | 2 = 0): Promise<Image> {
  const box = SAMPLE1_FACES[face];
  const photo = await samplePhoto(1);
  const w = Math.round(box.width * 2);
  const h = Math.round(w * (4 / 3));
  const x = Math.round(box.x + box.width / 2 - w / 2);
  const y = Math.round(box.y + box.height / 2 - h * 0.45);
  const portrait = photo.crop({ x, y, w, h }).resize({ w: 260 });
  portrait.color([{ apply: 'desaturate', params: [40] }]);
  const card = new Jimp({ width: 1000, height: 630, color: 0xe8ecf0ff });
  card.composite(portrait, 40, 120);
  return brighter(card as Image, 1.1);
}
