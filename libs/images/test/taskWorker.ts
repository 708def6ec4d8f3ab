// A pool script for the tests: reports the decoded size (scaled to maxSide when asked), or makes a
// grey PNG of it (grey), or holds its thread (sleep), or fills its heap until the thread's
// resourceLimits stop it (hog).
import { greyPng, serveImageTasks, type GreyPngOptions } from '../src/worker.ts';

export type TestTask =
  | { task: 'size'; maxSide?: number }
  | ({ task: 'grey' } & GreyPngOptions)
  | { task: 'sleep'; ms: number }
  | { task: 'hog' };

serveImageTasks<TestTask>(
  async (bitmap, job) => {
    if (job.task === 'grey') return new Uint8Array(await greyPng(bitmap, job));
    if (job.task === 'sleep') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.ms);
    if (job.task === 'hog') {
      const kept: object[] = [];
      for (;;) kept.push({ at: kept.length, text: `row ${kept.length}` });
    }
    return { width: bitmap.width, height: bitmap.height, bytes: bitmap.data.byteLength };
  },
  { workingSize: (job) => (job.task === 'size' ? job.maxSide : undefined) },
);
