// The heavy lane of a capture-check worker: images whose decoding costs at least
// CAPTURE_HEAVY_CHECK_MB (over 16 megapixels, or 16-bit samples: a 93 KB 16-bit PNG of 12 MP takes
// a second of a core) are checked by the same engine in a second process, started on the first
// such image, at the lowest CPU priority (heavyLaneMain.ts), with one image thread. A person's
// ordinary photo then never waits for a core behind one of them: the niceness of a thread does not
// reach libvips, which decodes on libuv's threads, so only a process of its own can hold the
// costly decodes back. Within the worker's bounds as any check (checkAdmission.ts), and at most
// LANE_DEPTH in the lane at once (one checked, one waiting); past that, or when the lane crashed or
// does not answer in time (it is then ended), the check is check_unavailable (boundedCheck), never
// an accepted image; the next costly image starts the lane again. The lane gets no secret: only
// the settings its engine reads.
import { fork, type ChildProcess } from 'node:child_process';
import type { CaptureReport } from '@idv/capture-checks';
import type { HeavyLane, ThreadCheckInput } from '@idv/capture-checks/engine';
import type { Logger } from '@idv/observability';

/** A lane's answer to one check. */
export type LaneReply = { id: number; report: CaptureReport } | { id: number; error: string };

/** checks in the lane at once: one in its thread, one ready behind it */
const LANE_DEPTH = 2;
/** what of the worker's environment the lane's engine reads */
const LANE_ENV = /^(CAPTURE_|LOG_LEVEL$|NODE_ENV$|PATH$|HOME$|TMPDIR$|LANG$|UV_THREADPOOL_SIZE$)/;

interface Pending {
  resolve(report: CaptureReport): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

const isReply = (message: unknown): message is LaneReply =>
  typeof message === 'object' &&
  message !== null &&
  typeof (message as { id?: unknown }).id === 'number' &&
  ('report' in message || 'error' in message);

export class HeavyLaneProcess implements HeavyLane {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    readonly minCost: number,
    private readonly env: Record<string, string | undefined>,
    private readonly logger: Pick<Logger, 'warn'>,
    /** past it a check is given up and the lane ended (the gateway's own wait is shorter) */
    private readonly timeoutMs = 60_000,
  ) {}

  /** the lane's process id while it runs */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  check(input: ThreadCheckInput): Promise<CaptureReport> {
    if (this.closed) return Promise.reject(new Error('the heavy lane is closed'));
    if (this.pending.size >= LANE_DEPTH)
      return Promise.reject(new Error('the heavy lane is busy with other costly images'));
    const child = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // a lane that does not answer is stuck on something: it ends, its checks with it
        this.settle(id, { id, error: 'the heavy lane did not answer in time' });
        child.kill('SIGKILL');
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      child.send({ id, input }, (err) => {
        if (err) this.settle(id, { id, error: `the heavy lane is unreachable: ${err.message}` });
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // its channel closing tells it to close its threads and end
    if (child.connected) child.disconnect();
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const env = Object.fromEntries(
      Object.entries({ ...process.env, ...this.env }).filter(([name]) => LANE_ENV.test(name)),
    );
    const child = fork(new URL('./heavyLaneMain.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (reply: unknown) => {
      if (isReply(reply)) this.settle(reply.id, reply);
    });
    // not started (no process left, no memory) or ended: its checks fail, the next starts another
    const ended = (why: string) => {
      if (this.child === child) this.child = undefined;
      if (!this.closed && this.pending.size > 0)
        this.logger.warn({ reason: why }, 'heavy lane ended with checks in it');
      for (const id of [...this.pending.keys()]) this.settle(id, { id, error: why });
    };
    child.once('error', (err) => ended(`the heavy lane failed: ${err.message}`));
    child.once('exit', (code, signal) => ended(`the heavy lane ended (${signal ?? code})`));
    this.child = child;
    return child;
  }

  private settle(id: number, reply: LaneReply): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if ('report' in reply) waiting.resolve(reply.report);
    else waiting.reject(new Error(reply.error));
  }
}
