// Worker thread of the capture checks: decodes an image and runs one task on it (imageTasks.ts),
// one job at a time, so a large photo never blocks the gateway's event loop. The last decoded
// image is kept a few seconds: the content checks that follow the measures of the same upload
// reuse its pixels instead of decoding a camera photo again (about a second for 10 megapixels).
// Messages: {id, job, format, bytes} in, {id, result} or {id, error, undecodable} out.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { decodeImage } from './decode.ts';
import type { ImageFormat } from './imageHeader.ts';
import { runTask, type ImageTask } from './imageTasks.ts';
import type { Bitmap } from './measures.ts';

interface Job {
  id: number;
  job: ImageTask;
  format: ImageFormat;
  bytes: Uint8Array;
}

const KEEP_DECODED_MS = 5_000;
let last: { key: string; bitmap: Bitmap; timer: NodeJS.Timeout } | undefined;

async function decoded(bytes: Buffer, format: ImageFormat): Promise<Bitmap> {
  const key = `${format}:${createHash('sha256').update(bytes).digest('hex')}`;
  if (last?.key === key) return last.bitmap;
  if (last) clearTimeout(last.timer);
  last = undefined; // the previous pixels go before the next are decoded
  const bitmap = await decodeImage(bytes, format);
  const timer = setTimeout(() => (last = undefined), KEEP_DECODED_MS).unref();
  last = { key, bitmap, timer };
  return bitmap;
}

parentPort?.on('message', ({ id, job, format, bytes }: Job) => {
  decoded(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), format)
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
