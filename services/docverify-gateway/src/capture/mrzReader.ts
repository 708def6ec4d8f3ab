// The MRZ check's OCR: one tesseract engine per gateway (its own worker thread, started on first
// use, about a second), reads one page at a time, each within a time limit counted from the
// request (waiting included). A read that overruns ends the engine (tesseract cannot cancel a
// job; the next read starts a fresh one), and one that waits behind too many others is not made:
// both come back as `unchecked`, and the capture check fails open rather than block the person.
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
    const mine = this.turn.then(() => this.readBy(png, deadline));
    this.turn = mine.catch(() => undefined);
    try {
      return await mine;
    } finally {
      this.waiting -= 1;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopEngine();
  }

  private async readBy(png: Buffer, deadline: number): Promise<MrzOutcome> {
    const left = deadline - Date.now();
    if (left <= 0) return { status: 'unchecked', reason: 'the MRZ read waited past its time' };
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<'overrun'>((resolve) => {
      timer = setTimeout(() => resolve('overrun'), left);
    });
    try {
      const lines = await Promise.race([this.read(png), overrun]);
      if (lines === 'overrun') {
        void this.stopEngine(); // not awaited: a stuck engine may never answer
        return {
          status: 'unchecked',
          reason: `the MRZ read took over ${this.options.timeoutMs} ms`,
        };
      }
      if (!lines) return { status: 'invalid', reason: 'no machine readable zone found' };
      if (!mrzDigitsHold(lines))
        return { status: 'invalid', reason: 'the check digits of the MRZ read do not hold' };
      return { status: 'valid' };
    } catch (err) {
      void this.stopEngine();
      return { status: 'unchecked', reason: `the MRZ read failed: ${(err as Error).message}` };
    } finally {
      clearTimeout(timer);
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
