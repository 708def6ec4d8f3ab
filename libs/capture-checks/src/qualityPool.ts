// The capture checks' worker threads: @idv/images' pool (images admitted on their header, decoded
// in threads under resourceLimits, a job's time limit counted from when it is queued) running the
// tasks of imageTasks.ts, with the two failures the checks tell apart.
import { ImageJobTimedOut, ImagePool, ImageRefused, type ImageFormat } from '@idv/images';
import type { ImageTask, TaskResult } from './imageTasks.ts';
import type { Measures } from './measures.ts';
import { CAPTURE_IMAGE_LIMITS } from './qualityRules.ts';

/** The image could not be decoded (its bytes, not our pool, are at fault). */
export class UndecodableImage extends Error {
  override readonly name = 'UndecodableImage';
}

/** A job ran past its time limit, queueing included (a running job's thread was replaced). */
export class CheckTimedOut extends Error {
  override readonly name = 'CheckTimedOut';
  constructor(
    message: string,
    /** it ran in a thread for most of its limit: the image's own work, not the wait, used it up */
    readonly imageAtFault: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class QualityPool {
  private readonly pool: ImagePool<ImageTask>;

  constructor(size: number, jobTimeoutMs = 20_000) {
    this.pool = new ImagePool({
      script: new URL('./qualityWorker.ts', import.meta.url),
      threads: size,
      limits: CAPTURE_IMAGE_LIMITS,
      timeoutMs: jobTimeoutMs,
      warm: true,
    });
  }

  /** Decodes and measures `bytes` in a worker thread. */
  measure(bytes: Buffer, format: ImageFormat): Promise<Measures> {
    return this.run({ task: 'measure' }, bytes, format);
  }

  /** Decodes `bytes` in a worker thread and runs `job` on the pixels, within `timeoutMs`. */
  async run<T extends ImageTask>(
    job: T,
    bytes: Buffer,
    format: ImageFormat,
    timeoutMs?: number,
  ): Promise<TaskResult<T>> {
    try {
      return await this.pool.run<TaskResult<T>>(job, bytes, {
        format,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    } catch (err) {
      if (err instanceof ImageRefused) throw new UndecodableImage(err.message);
      if (err instanceof ImageJobTimedOut)
        throw new CheckTimedOut('the image took too long to check', err.imageAtFault, {
          cause: err,
        });
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
