// What the capture worker threads do with a decoded image: measure it (the local checks), look for
// a PDF417, find the faces (@idv/faces), or prepare the page for the MRZ OCR (the MRZ band and the grey lower
// half it falls back to, bounded).
// CPU work, run in qualityWorker.ts, never on an event loop (a capture-check worker's threads).
// Each task says the working size it needs (workingSize): the thread decodes a larger image scaled
// down to it.
import { readPdf417 } from '@idv/docread';
import { detectFaces, type FaceBox } from '@idv/faces';
import { greyPng } from '@idv/images/worker';
import { measure, type Bitmap, type Measures } from './measures.ts';
import { bandSlope, cropBand, findMrzBand, levelBand } from './mrzBand.ts';

/** The longest side of the page given to the OCR: MRZ glyphs stay over ~15 px on a phone photo. */
export const MRZ_PAGE_SIZE = 1800;
/** The OCR reads the lower half only: the MRZ closes the page, and the half reads 3-4x faster. */
export const MRZ_PAGE_PART = 0.5;
/**
 * The longest side the measures, the face and the MRZ page are worked out from: each scales
 * further down itself (640, 200 and 1800 px), so a 12 MP photo is decoded at half its size (a
 * JPEG shrinks while it decodes) for the same verdicts, a quarter of the pixels to hold and walk.
 */
export const TASK_WORKING_SIZE = 2000;
/**
 * The PDF417's: a 12 MP phone photo whole (a barcode photographed from afar has modules of 2-3
 * px), a 50 MP one at half, so its pixels and zxing's copy of them stay near a 12 MP photo's:
 * measured, a check of a 12 MP licence back peaked 146 MiB over a warm process, of the same back
 * at 50 MP 186 MiB (512 MiB read whole). That 12 MP back still read at 1000 px.
 */
export const PDF417_WORKING_SIZE = 4096;

export type ImageTask =
  | { task: 'measure' }
  | { task: 'pdf417' }
  | { task: 'face'; anyFace: boolean }
  | { task: 'mrzPage' };

export interface TaskResults {
  measure: Measures;
  pdf417: { found: boolean };
  /** the faces found (largest first), the picture's size upright, the detector's time */
  face: { faces: FaceBox[]; width: number; height: number; ms: number };
  /** grey PNGs for the OCR: the MRZ band when one is found, and the lower part of the page */
  mrzPage: { band?: Uint8Array; page: Uint8Array };
}

export type TaskResult<T extends ImageTask> = TaskResults[T['task']];

/** The longest side `job` needs its image decoded at. */
export const workingSize = (job: ImageTask): number =>
  job.task === 'pdf417' ? PDF417_WORKING_SIZE : TASK_WORKING_SIZE;

export async function runTask(bitmap: Bitmap, job: ImageTask): Promise<TaskResult<ImageTask>> {
  switch (job.task) {
    case 'measure':
      return measure(bitmap);
    case 'pdf417': {
      const data = new Uint8Array(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.length);
      return { found: (await readPdf417({ ...bitmap, data })) !== undefined };
    }
    case 'face': {
      const started = performance.now();
      const faces = await detectFaces(bitmap, { anyFace: job.anyFace });
      const { width, height } = bitmap;
      return { faces, width, height, ms: Math.round(performance.now() - started) };
    }
    case 'mrzPage':
      return mrzImages(bitmap);
  }
}

/**
 * The MRZ band (mrzBand.ts: a tenth of the pixels, read 3-5x faster, its lines levelled, so a page
 * photographed a few degrees askew reads too) and the lower part of the page the read falls back
 * to, both grey and scaled alike: at most MRZ_PAGE_SIZE on the page's longest side, so the band's
 * glyphs are the size the page's read well at.
 */
async function mrzImages(bitmap: Bitmap): Promise<TaskResults['mrzPage']> {
  const top = Math.floor(bitmap.height * (1 - MRZ_PAGE_PART));
  const scale = Math.min(1, MRZ_PAGE_SIZE / Math.max(bitmap.width, bitmap.height));
  const page = new Uint8Array(
    await greyPng(bitmap, { top, width: Math.round(bitmap.width * scale) }),
  );
  const found = findMrzBand(bitmap, top);
  if (!found) return { page };
  const crop = cropBand(bitmap, found);
  const band = levelBand(crop, bandSlope(crop));
  return {
    band: new Uint8Array(await greyPng(band, { width: Math.round(band.width * scale) })),
    page,
  };
}
