// A pool script for the tests: reports the decoded size (scaled to maxSide when asked), or holds
// its thread (sleep), or fills its heap until the thread's resourceLimits stop it (hog).
import { serveImageTasks } from '../src/worker.ts';

export type TestTask =
  { task: 'size'; maxSide?: number } | { task: 'sleep'; ms: number } | { task: 'hog' };

serveImageTasks<TestTask>(
  (bitmap, job) => {
    if (job.task === 'sleep') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.ms);
    if (job.task === 'hog') {
      const kept: object[] = [];
      for (;;) kept.push({ at: kept.length, text: `row ${kept.length}` });
    }
    return { width: bitmap.width, height: bitmap.height, bytes: bitmap.data.byteLength };
  },
  { workingSize: (job) => (job.task === 'size' ? job.maxSide : undefined) },
);
