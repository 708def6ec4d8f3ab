// The MRZ check's OCR: one tesseract engine per gateway (its own worker thread, started on first
// use, about a second), reads one page at a time. A check may give several images of the page, the
// quickest to read first (the MRZ band, then the half page): the first whose MRZ holds decides, so
// a page whose band misleads still reads as it would alone. Each check answers within its time
// limit counted from the request (waiting included, all its images' reads together): past it, or
// when too many wait, it comes back `unchecked` and the capture check fails open rather than block
// the person. A read that overruns goes on in the background (the engine stays warm for the next)
// up to HARD_LIMIT times the limit, when the engine is ended (tesseract cannot cancel a job) and
// the next read starts a fresh one.
import { createOcrEngine, mrzDigitsHold, readMrz, type OcrEngine } from '@idv/docread';

export type MrzOutcome =
  /** `image`: which of the check's images read (0 the first) */
  | { status: 'valid'; image: number }
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

  /**
   * Reads the MRZ of a greyscale page PNG, or of each of several images of the page in turn until
   * one reads, and tells whether its check digits hold: the time limit is the whole check's.
   */
  async check(images: Buffer | readonly Buffer[]): Promise<MrzOutcome> {
    const pngs = Buffer.isBuffer(images) ? [images] : images;
    if (this.closed) return { status: 'unchecked', reason: 'the MRZ reader is closed' };
    if (this.waiting >= (this.options.maxWaiting ?? 4))
      return { status: 'unchecked', reason: 'too many MRZ reads waiting' };
    const deadline = Date.now() + this.options.timeoutMs;
    this.waiting += 1;
    let release = () => {};
    const previous = this.turn;
    this.turn = new Promise<void>((resolve) => (release = resolve));
    try {
      return await this.within(
        deadline,
        previous.then(() => this.readInTurn(pngs, deadline, release)),
      );
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
        () =>
          resolve({
            status: 'unchecked',
            reason: `the MRZ read took over ${this.options.timeoutMs} ms`,
          }),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([outcome, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a check's reads holding the turn until they end, or until its hard limit ends the engine. */
  private async readInTurn(
    pngs: readonly Buffer[],
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
      let outcome: MrzOutcome = { status: 'invalid', reason: 'no image of the page to read' };
      for (const [image, png] of pngs.entries()) {
        // past its time the check has answered: a further read would only hold up the next
        if (image > 0 && Date.now() >= deadline) break;
        outcome = await this.readOne(png, image);
        if (outcome.status === 'valid') break;
      }
      return outcome;
    } catch (err) {
      void this.stopEngine();
      return { status: 'unchecked', reason: `the MRZ read failed: ${(err as Error).message}` };
    } finally {
      clearTimeout(hardLimit);
      release();
    }
  }

  private async readOne(png: Buffer, image: number): Promise<MrzOutcome> {
    const lines = await this.read(png);
    if (!lines) return { status: 'invalid', reason: 'no machine readable zone found' };
    if (!mrzDigitsHold(lines))
      return { status: 'invalid', reason: 'the check digits of the MRZ read do not hold' };
    return { status: 'valid', image };
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
