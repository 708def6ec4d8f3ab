// A small pool of capture worker threads: jobs (an image and a task of imageTasks.ts) queue for a
// free thread, each has a time limit, and a thread that crashes or overruns is replaced (its job
// fails, the next ones go on).
import { Worker } from 'node:worker_threads';
import type { ImageFormat } from './imageHeader.ts';
import type { ImageTask, TaskResult } from './imageTasks.ts';
import type { Measures } from './measures.ts';

/** The image could not be decoded (its bytes, not our pool, are at fault). */
export class UndecodableImage extends Error {
  override readonly name = 'UndecodableImage';
}

/** A job ran past its time limit (its thread was replaced). */
export class CheckTimedOut extends Error {
  override readonly name = 'CheckTimedOut';
}

interface Pending {
  id: number;
  job: ImageTask;
  format: ImageFormat;
  bytes: Buffer;
  timeoutMs: number;
  resolve: (result: TaskResult<ImageTask>) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  job: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
}

type Reply =
  | { id: number; result: TaskResult<ImageTask> }
  | { id: number; error: string; undecodable: boolean };

export class QualityPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly jobTimeoutMs = 20_000,
  ) {}

  /** Decodes and measures `bytes` in a worker thread. */
  measure(bytes: Buffer, format: ImageFormat): Promise<Measures> {
    return this.run({ task: 'measure' }, bytes, format);
  }

  /** Decodes `bytes` in a worker thread and runs `job` on the pixels, within `timeoutMs`. */
  run<T extends ImageTask>(
    job: T,
    bytes: Buffer,
    format: ImageFormat,
    timeoutMs = this.jobTimeoutMs,
  ): Promise<TaskResult<T>> {
    if (this.closed) return Promise.reject(new Error('the quality pool is closed'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const settle = resolve as (result: TaskResult<ImageTask>) => void;
      this.queue.push({ id, job, format, bytes, timeoutMs, resolve: settle, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the quality pool is closed'));
    await Promise.all(this.threads.splice(0).map((t) => this.retire(t, 'closing')));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.threads.find((t) => !t.job) ?? this.spawn();
      if (!idle) return;
      const job = this.queue.shift()!;
      idle.job = job;
      idle.timer = setTimeout(
        () => void this.retire(idle, new CheckTimedOut('the image took too long to check')),
        job.timeoutMs,
      );
      idle.worker.postMessage({ id: job.id, job: job.job, format: job.format, bytes: job.bytes });
    }
  }

  private spawn(): Thread | undefined {
    if (this.threads.length >= this.size) return undefined;
    const worker = new Worker(new URL('./qualityWorker.ts', import.meta.url));
    const thread: Thread = { worker, job: undefined, timer: undefined };
    worker.on('message', (reply: Reply) => this.settle(thread, reply));
    worker.on('error', (err) => void this.retire(thread, err.message));
    worker.on('exit', () => void this.retire(thread, 'the quality worker stopped'));
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  private settle(thread: Thread, reply: Reply): void {
    const job = thread.job;
    if (!job || job.id !== reply.id) return;
    clearTimeout(thread.timer);
    thread.job = undefined;
    if (!('error' in reply)) job.resolve(reply.result);
    else job.reject(reply.undecodable ? new UndecodableImage(reply.error) : new Error(reply.error));
    this.dispatch();
  }

  /** Takes a thread out (crashed, overran or closing); its job fails, the queue goes on. */
  private async retire(thread: Thread, reason: string | Error): Promise<void> {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    clearTimeout(thread.timer);
    const job = thread.job;
    thread.job = undefined;
    job?.reject(typeof reason === 'string' ? new Error(reason) : reason);
    await thread.worker.terminate().catch(() => undefined);
    if (!this.closed) this.dispatch();
  }
}
