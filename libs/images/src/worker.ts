// The thread side of pool.ts: admits each image again (a thread trusts nothing it is sent),
// decodes it, whole or scaled to the working size the script asks for the task, and runs the
// script's task on the pixels. The last decoded image is kept a few seconds, so tasks that follow on
// the same bytes at the same size (the capture checks run up to four) reuse it.
// Messages: {id, task, bytes} in; {id, started} when the job is taken (a thread still loading its
// modules has not started it), then {id, result} or {id, error, refused?} out.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeImage, type Bitmap } from './decode.ts';
import { admitImage, type ImageLimits } from './limits.ts';
import { ImageRefused } from './refusal.ts';

export type { Bitmap } from './decode.ts';
export { greyPng, type GreyPngOptions } from './greyPng.ts';

export type ImageTaskRunner<Task> = (bitmap: Bitmap, task: Task) => unknown;

export interface ServeOptions<Task> {
  /** how long the last decoded image is kept for the next task (5 s) */
  keepDecodedMs?: number;
  /** the longest side a task needs (decode.ts maxSide): larger images are scaled down to it */
  workingSize?: (task: Task) => number | undefined;
}

/** Serves the pool's jobs in this thread with `runTask`. */
export function serveImageTasks<Task>(
  runTask: ImageTaskRunner<Task>,
  options: ServeOptions<Task> = {},
): void {
  const { limits } = workerData as { limits: ImageLimits };
  const keepMs = options.keepDecodedMs ?? 5_000;
  let last: { key: string; bitmap: Bitmap; timer: NodeJS.Timeout } | undefined;

  async function decoded(bytes: Buffer, task: Task): Promise<Bitmap> {
    const maxSide = options.workingSize?.(task);
    const key = `${createHash('sha256').update(bytes).digest('hex')} ${maxSide ?? 'whole'}`;
    if (last?.key === key) return last.bitmap;
    if (last) clearTimeout(last.timer);
    last = undefined; // the previous pixels go before the next are decoded
    const header = admitImage(bytes, limits);
    const bitmap = await decodeImage(bytes, header, limits, maxSide ? { maxSide } : {});
    if (keepMs > 0) {
      const timer = setTimeout(() => (last = undefined), keepMs).unref();
      last = { key, bitmap, timer };
    }
    return bitmap;
  }

  parentPort?.on(
    'message',
    ({ id, task, bytes }: { id: number; task: Task; bytes: Uint8Array }) => {
      parentPort?.postMessage({ id, started: true });
      decoded(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), task)
        .then((bitmap) => runTask(bitmap, task))
        .then((result) => parentPort?.postMessage({ id, result }))
        .catch((err: unknown) =>
          parentPort?.postMessage({
            id,
            error: err instanceof Error ? err.message : String(err),
            refused: err instanceof ImageRefused ? err.reason : undefined,
          }),
        );
    },
  );
}
