// Worker thread of the capture checks: decodes an image and runs one task on it (imageTasks.ts),
// one job at a time, so a large photo never blocks the gateway's event loop. Messages:
// {id, job, format, bytes} in, {id, result} or {id, error, undecodable} out.
import { parentPort } from 'node:worker_threads';
import { decodeImage } from './decode.ts';
import type { ImageFormat } from './imageHeader.ts';
import { runTask, type ImageTask } from './imageTasks.ts';

interface Job {
  id: number;
  job: ImageTask;
  format: ImageFormat;
  bytes: Uint8Array;
}

parentPort?.on('message', ({ id, job, format, bytes }: Job) => {
  decodeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), format)
    .then(
      (bitmap) => runTask(bitmap, job),
      (err: unknown) => Promise.reject(Object.assign(new Error(message(err)), { decode: true })),
    )
    .then((result) => parentPort?.postMessage({ id, result }))
    .catch((err: unknown) =>
      parentPort?.postMessage({
        id,
        error: message(err),
        undecodable: (err as { decode?: boolean }).decode === true,
      }),
    );
});

function message(err: unknown): string {
  return err instanceof Error ? err.message : 'undecodable';
}
