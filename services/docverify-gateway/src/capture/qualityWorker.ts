// Worker thread of the capture checks: decodes an image and measures it, one job at a time, so a
// large photo never blocks the gateway's event loop. Messages: {id, format, bytes} in,
// {id, measures} or {id, error} out.
import { parentPort } from 'node:worker_threads';
import { decodeImage } from './decode.ts';
import type { ImageFormat } from './imageHeader.ts';
import { measure } from './measures.ts';

interface Job {
  id: number;
  format: ImageFormat;
  bytes: Uint8Array;
}

parentPort?.on('message', (job: Job) => {
  decodeImage(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.format)
    .then((bitmap) => parentPort?.postMessage({ id: job.id, measures: measure(bitmap) }))
    .catch((err: unknown) =>
      parentPort?.postMessage({ id: job.id, error: (err as Error)?.message ?? 'undecodable' }),
    );
});
