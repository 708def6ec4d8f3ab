// What the capture worker threads do with a decoded image: measure it (the local checks), look for
// a PDF417, look for a face, or prepare the page for the MRZ OCR (the grey lower half, bounded).
// CPU work, run in qualityWorker.ts, never on the gateway's event loop.
import { readPdf417 } from '@idv/docread';
import { Jimp } from 'jimp';
import { findFace, type FaceFinding } from './faceFinder.ts';
import { measure, type Bitmap, type Measures } from './measures.ts';

/** The longest side of the page given to the OCR: MRZ glyphs stay over ~15 px on a phone photo. */
export const MRZ_PAGE_SIZE = 1800;
/** The OCR reads the lower half only: the MRZ closes the page, and the half reads 3-4x faster. */
export const MRZ_PAGE_PART = 0.5;

export type ImageTask =
  | { task: 'measure' }
  | { task: 'pdf417' }
  | { task: 'face'; minShare: number }
  | { task: 'mrzPage' };

export interface TaskResults {
  measure: Measures;
  pdf417: { found: boolean };
  face: FaceFinding;
  mrzPage: { png: Uint8Array };
}

export type TaskResult<T extends ImageTask> = TaskResults[T['task']];

export async function runTask(bitmap: Bitmap, job: ImageTask): Promise<TaskResult<ImageTask>> {
  switch (job.task) {
    case 'measure':
      return measure(bitmap);
    case 'pdf417': {
      const data = new Uint8Array(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.length);
      return { found: (await readPdf417({ ...bitmap, data })) !== undefined };
    }
    case 'face':
      return findFace(bitmap, job.minShare);
    case 'mrzPage':
      return { png: await greyPage(bitmap) };
  }
}

async function greyPage(bitmap: Bitmap): Promise<Uint8Array> {
  const data = Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.length);
  const image = Jimp.fromBitmap({ width: bitmap.width, height: bitmap.height, data });
  if (Math.max(bitmap.width, bitmap.height) > MRZ_PAGE_SIZE)
    image.scaleToFit({ w: MRZ_PAGE_SIZE, h: MRZ_PAGE_SIZE });
  const top = Math.floor(image.height * (1 - MRZ_PAGE_PART));
  image.crop({ x: 0, y: top, w: image.width, h: image.height - top });
  return new Uint8Array(await image.greyscale().getBuffer('image/png'));
}
