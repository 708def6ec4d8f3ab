// The MRZ check's OCR: one tesseract engine per gateway (its own worker thread, started on first
// use, about a second), reads one page at a time. Each check answers within its time limit counted
// from the request (waiting included): past it, or when too many wait, it comes back `unchecked`
// and the capture check fails open rather than block the person. A read that overruns goes on in
// the background (the engine stays warm for the next) up to HARD_LIMIT times the limit, when the
// engine is ended (tesseract cannot cancel a job) and the next read starts a fresh one.
import { createOcrEngine, mrzDigitsHold, readMrz, type OcrEngine } from '@idv/docread';

export type MrzOutcome =
  | { status: 'valid' }
  | { status: 'invalid'; reason: string }
  | { status: 'unchecked'; reason: string };

export interface MrzReaderOptions {
  /** the time limit of one check, waiting included */
  timeoutMs: number;
  /** reads queued beyond this are not made (unchecked) */
  maxWaiting?: number;
  /** starts the engine; tests give a slow one */
  startEngine?: () => Promise<OcrEngine>;
}

/** A read running this many times its time limit ends the engine. */
export const HARD_LIMIT = 3;

export class MrzReader {
  private engine: Promise<OcrEngine> | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;

  constructor(private readonly options: MrzReaderOptions) {}

  /** Reads the MRZ of a greyscale page PNG and tells whether its check digits hold. */
  async check(png: Buffer): Promise<MrzOutcome> {
    if (this.closed) return { status: 'unchecked', reason: 'the MRZ reader is closed' };
    if (this.waiting >= (this.options.maxWaiting ?? 4))
      return { status: 'unchecked', reason: 'too many MRZ reads waiting' };
    const deadline = Date.now() + this.options.timeoutMs;
    this.waiting += 1;
    let release = () => {};
    const previous = this.turn;
    this.turn = new Promise<void>((resolve) => (release = resolve));
    try {
      return await this.within(deadline, previous.then(() => this.readInTurn(png, deadline, release))); // prettier-ignore
    } finally {
      this.waiting -= 1;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopEngine();
  }

  /** `outcome`, or unchecked once `deadline` passes. */
  private async within(deadline: number, outcome: Promise<MrzOutcome>): Promise<MrzOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<MrzOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'unchecked', reason: `the MRZ read took over ${this.options.timeoutMs} ms` }), // prettier-ignore
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([outcome, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs one read holding the turn until it ends, or until its hard limit ends the engine. */
  private async readInTurn(
    png: Buffer,
    deadline: number,
    release: () => void,
  ): Promise<MrzOutcome> {
    if (Date.now() >= deadline) {
      release();
      return { status: 'unchecked', reason: 'the MRZ read waited past its time' };
    }
    const hardLimit = setTimeout(() => {
      void this.stopEngine();
      release();
    }, this.options.timeoutMs * HARD_LIMIT);
    try {
      const lines = await this.read(png);
      if (!lines) return { status: 'invalid', reason: 'no machine readable zone found' };
      if (!mrzDigitsHold(lines))
        return { status: 'invalid', reason: 'the check digits of the MRZ read do not hold' };
      return { status: 'valid' };
    } catch (err) {
      void this.stopEngine();
      return { status: 'unchecked', reason: `the MRZ read failed: ${(err as Error).message}` };
    } finally {
      clearTimeout(hardLimit);
      release();
    }
  }

  private async read(png: Buffer): Promise<string[] | undefined> {
    this.engine ??= (this.options.startEngine ?? createOcrEngine)();
    return readMrz(await this.engine, png);
  }

  private async stopEngine(): Promise<void> {
    const started = this.engine;
    this.engine = undefined;
    if (started) await started.then((e) => e.close()).catch(() => undefined);
  }
}
