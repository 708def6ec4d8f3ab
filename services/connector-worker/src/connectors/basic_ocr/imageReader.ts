// basic_ocr's images, read through @idv/images: admitted on their header (PNG, JPEG or WebP, at
// most 50 megapixels and 200 MB decoded) and decoded in a small pool of worker threads, never on
// the event loop the worker's other jobs (other tenants') share. What the pool refuses is an
// outcome of the job: the image is invalid input; a job out of time is invalid input only when it
// ran most of its limit on the image (ImageJobTimedOut.imageAtFault), else Busy: the platform's
// load, not the image, even when it started late after waiting for a thread.
import { availableParallelism } from 'node:os';
import {
  DEFAULT_IMAGE_LIMITS,
  ImageJobTimedOut,
  ImagePool,
  ImageRefused,
  type ImageLimits,
} from '@idv/images';
import { Busy, Refused } from '../../outcomes.ts';
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
      throw outcomeOfRead(err, image.field);
    }
  };
  return {
    pdf417: (image, signal) => run<string | undefined>({ task: 'pdf417' }, image, signal),
    greyPng: async (image, signal) =>
      Buffer.from(await run<Uint8Array>({ task: 'greyPng' }, image, signal)),
    close: () => pool.close(),
  };
}

/** What a failed read means for the job; anything else (the job's own abort) as it is. */
function outcomeOfRead(err: unknown, field: string): unknown {
  if (err instanceof ImageRefused) {
    const why = err.reason === 'over_limit' || err.reason === 'too_large' ? 'is refused' : 'is not a decodable image'; // prettier-ignore
    return new Refused('invalid_input', `${field} ${why}: ${err.message}`);
  }
  if (!(err instanceof ImageJobTimedOut)) return err;
  if (!err.imageAtFault)
    return new Busy('verifier_saturated', `${field} waited ${err.queuedMs} ms for an image thread`);
  return new Refused('invalid_input', `${field} took over ${err.timeoutMs} ms to read`);
}
