// basic_ocr's images, read through @idv/images: admitted on their header (PNG, JPEG or WebP, at
// most 50 megapixels and 200 MB decoded) and decoded in a small pool of worker threads, never on
// the event loop the worker's other jobs (other tenants') share. What the pool refuses is an
// outcome of the job (shared/offlineImages.ts).
import { availableParallelism } from 'node:os';
import { DEFAULT_IMAGE_LIMITS, ImagePool, type ImageLimits } from '@idv/images';
import { outcomeOfImageJob } from '../shared/offlineImages.ts';
import type { DocumentImage } from './documentImage.ts';

export type ImageTask = { task: 'pdf417' } | { task: 'greyPng' };

export interface ImageReader {
  /** the text of the image's PDF417, if it has one */
  pdf417(image: DocumentImage, signal: AbortSignal): Promise<string | undefined>;
  /** the image as a greyscale PNG, for the OCR */
  greyPng(image: DocumentImage, signal: AbortSignal): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ImageReaderOptions {
  threads?: number;
  /** a read's time limit, counted from when it is queued */
  timeoutMs?: number;
  limits?: ImageLimits;
}

export const IMAGE_READ_TIMEOUT_MS = 20_000;

export function createImageReader(options: ImageReaderOptions = {}): ImageReader {
  const pool = new ImagePool<ImageTask>({
    script: new URL('./imageWorker.ts', import.meta.url),
    threads: options.threads ?? availableParallelism(),
    limits: options.limits ?? DEFAULT_IMAGE_LIMITS,
    timeoutMs: options.timeoutMs ?? IMAGE_READ_TIMEOUT_MS,
    warm: true,
  });
  const run = async <R>(task: ImageTask, image: DocumentImage, signal: AbortSignal) => {
    try {
      return await pool.run<R>(task, image.bytes, { signal });
    } catch (err) {
      throw outcomeOfImageJob(err, image.field);
    }
  };
  return {
    pdf417: (image, signal) => run<string | undefined>({ task: 'pdf417' }, image, signal),
    greyPng: async (image, signal) =>
      Buffer.from(await run<Uint8Array>({ task: 'greyPng' }, image, signal)),
    close: () => pool.close(),
  };
}
