// A pool of worker threads through which images are decoded and worked on: a job is admitted
// (limits.ts) before it is queued, so a refused image never costs a thread; each thread runs
// one job at a time under V8 resourceLimits; a job's time limit runs from the moment it is
// queued, so waiting behind other jobs counts; a thread that overruns, crashes or runs out of
// memory is replaced (its job fails, the next ones go on). The work itself is the caller's
// script (worker.ts serveImageTasks with its own tasks).
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { ImageFormat } from './header.ts';
import { admitImage, type ImageLimits } from './limits.ts';
import { ImageRefused, isRefusalReason } from './refusal.ts';

/** The job ran past its time limit, counted from when it was queued. */
export class ImageJobTimedOut extends Error {
  override readonly name = 'ImageJobTimedOut';
  constructor(
    readonly timeoutMs: number,
    /** how long of it the job waited for a thread */
    readonly queuedMs: number,
    /** whether a thread took it: if not, the wait alone used up its time */
    readonly started: boolean,
  ) {
    super(
      started
        ? `the image job took over ${timeoutMs} ms (${queuedMs} ms of it waiting for a thread)`
        : `the image job waited over ${timeoutMs} ms for a thread`,
    );
  }

  /**
   * Whether the image itself is what used the time: it ran in a thread for most of the limit, and
   * a second at least (a limit of a few ms judges nothing), rather than waiting for one. Else the
   * platform's load is: the image may be sent again, as it is, at no cost to its sender.
   */
  get imageAtFault(): boolean {
    const runningMs = this.timeoutMs - this.queuedMs;
    return this.started && runningMs >= Math.max(this.timeoutMs / 2, COSTLY_RUN_MS);
  }
}

/** Running at least this long (and most of the limit) makes a timed-out image the costly one. */
const COSTLY_RUN_MS = 1000;

/** A decoder thread's V8 heap: the pixels live outside it and are bounded by the image limits. */
export const DECODER_RESOURCE_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

export interface ImagePoolOptions {
  /** a module that calls serveImageTasks (worker.ts) */
  script: URL;
  threads: number;
  limits: ImageLimits;
  /** a job's time limit from the moment it is queued */
  timeoutMs: number;
  resourceLimits?: ResourceLimits;
  /**
   * Start every thread now, and a replacement as soon as one is retired after a job, so that no
   * job waits for a thread to load its modules (half a second of a core here, in the middle of
   * someone's check). A thread that ends before it ever took a job is replaced only when a job
   * needs it, so a script that cannot start does not spin.
   */
  warm?: boolean;
}

export interface RunOptions {
  timeoutMs?: number;
  /** aborting drops the job from the queue, or stops its thread */
  signal?: AbortSignal;
  /** the format the sender claimed: another one is refused */
  format?: ImageFormat;
}

interface Job {
  id: number;
  message: { id: number; task: unknown; bytes: Uint8Array };
  queuedAt: number;
  /** when its thread took it: the wait before (queue, a new thread loading) is queue time */
  startedAt?: number;
  thread?: Thread;
  settle(outcome: { result: unknown } | { error: Error }): void;
}

interface Thread {
  worker: Worker;
  job: Job | undefined;
  /** it took a job once: its script starts */
  served?: true;
}

type Reply =
  | { id: number; started: true }
  | { id: number; result: unknown }
  | { id: number; error: string; refused?: string };

export class ImagePool<Task> {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ImagePoolOptions) {
    if (options.warm) for (let i = 0; i < options.threads; i++) this.spawn();
  }

  /** Threads started and not retired. */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Runs `task` on the pixels of `bytes` in a thread; the result is whatever the script returns. */
  run<Result>(task: Task, bytes: Buffer, options: RunOptions = {}): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('the image pool is closed'));
    try {
      const header = admitImage(bytes, this.options.limits);
      if (options.format && options.format !== header.format)
        throw new ImageRefused('undecodable', `a ${header.format} image sent as ${options.format}`);
      options.signal?.throwIfAborted();
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return new Promise((resolve, reject) => this.enqueue(task, bytes, options, resolve, reject));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.settle({ error: new Error('the image pool is closed') });
    await Promise.all(this.threads.splice(0).map((t) => this.retire(t, new Error('closing'))));
  }

  private enqueue<Result>(
    task: Task,
    bytes: Buffer,
    options: RunOptions,
    resolve: (result: Result) => void,
    reject: (err: Error) => void,
  ): void {
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const { signal } = options;
    const timer = setTimeout(() => {
      const queuedMs = (job.startedAt ?? Date.now()) - job.queuedAt;
      this.cancel(job, new ImageJobTimedOut(timeoutMs, queuedMs, job.startedAt !== undefined));
    }, timeoutMs);
    const onAbort = () => this.cancel(job, signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const job: Job = {
      id,
      message: { id, task, bytes },
      queuedAt: Date.now(),
      settle: (outcome) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        job.settle = () => {}; // once
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.result as Result);
      },
    };
    this.queue.push(job);
    this.dispatch();
  }

  /** Ends a job early: dropped from the queue, or its thread replaced. */
  private cancel(job: Job, error: Error): void {
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      job.settle({ error });
    } else if (job.thread) void this.retire(job.thread, error);
    else job.settle({ error });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.threads.find((t) => !t.job) ?? this.spawn();
      if (!idle) return;
      const job = this.queue.shift()!;
      idle.job = job;
      idle.served = true;
      job.thread = idle;
      idle.worker.postMessage(job.message);
    }
  }

  private spawn(): Thread | undefined {
    if (this.threads.length >= this.options.threads) return undefined;
    const worker = new Worker(this.options.script, {
      workerData: { limits: this.options.limits },
      resourceLimits: this.options.resourceLimits ?? DECODER_RESOURCE_LIMITS,
    });
    const thread: Thread = { worker, job: undefined };
    worker.on('message', (reply: Reply) => this.settle(thread, reply));
    worker.on('error', (err) => void this.retire(thread, threadFailure(err)));
    worker.on('exit', () => void this.retire(thread, new Error('the image thread stopped')));
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  private settle(thread: Thread, reply: Reply): void {
    const job = thread.job;
    if (!job || job.id !== reply.id) return;
    if ('started' in reply) {
      job.startedAt = Date.now(); // until now it waited, for a thread or for its thread to load
      return;
    }
    thread.job = undefined;
    if (!('error' in reply)) job.settle({ result: reply.result });
    else if (isRefusalReason(reply.refused))
      job.settle({ error: new ImageRefused(reply.refused, reply.error) });
    else job.settle({ error: new Error(reply.error) });
    this.dispatch();
  }

  /** Takes a thread out (crashed, overran, out of memory or closing); its job fails with `error`. */
  private async retire(thread: Thread, error: Error): Promise<void> {
    const at = this.threads.indexOf(thread);
    if (at < 0) return; // retired already (its exit follows the terminate below)
    this.threads.splice(at, 1);
    const job = thread.job;
    thread.job = undefined;
    job?.settle({ error });
    // the replacement loads while the old thread ends; a job goes to it once the old one is gone
    if (this.options.warm && thread.served && !this.closed) this.spawn();
    await thread.worker.terminate().catch(() => undefined);
    if (!this.closed) this.dispatch();
  }
}

/** A thread's own failure: out of its heap is the image's doing, anything else the thread's. */
function threadFailure(err: Error): Error {
  if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new ImageRefused(
      'over_limit',
      'working on the image took more memory than its thread may use',
    );
  return err;
}
