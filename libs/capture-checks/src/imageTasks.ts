// What the capture worker threads do with a decoded image: measure it (the local checks), look for
// a PDF417, look for a face, or prepare the page for the MRZ OCR (the grey lower half, bounded).
// CPU work, run in qualityWorker.ts, never on an event loop (a capture-check worker's threads).
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

/** The lower part of the page, copied (the decoded pixels may be reused), scaled and grey. */
async function greyPage(bitmap: Bitmap): Promise<Uint8Array> {
  const top = Math.floor(bitmap.height * (1 - MRZ_PAGE_PART));
  const rows = bitmap.data.subarray(top * bitmap.width * 4);
  const data = Buffer.from(rows.buffer, rows.byteOffset, rows.length);
  const image = Jimp.fromBitmap({ width: bitmap.width, height: bitmap.height - top, data: Buffer.from(data) }); // prettier-ignore
  if (Math.max(bitmap.width, bitmap.height) > MRZ_PAGE_SIZE) {
    const scale = MRZ_PAGE_SIZE / Math.max(bitmap.width, bitmap.height);
    image.resize({ w: Math.round(image.width * scale) });
  }
  return new Uint8Array(await image.greyscale().getBuffer('image/png'));
}
