// The offline tesseract engine: English LSTM data from @tesseract.js-data/eng, no download, no cache.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorker, OEM, PSM, type Worker, type WorkerOptions } from 'tesseract.js';

const require = createRequire(import.meta.url);

/** MRZ alphabet: the OCR may only answer with characters an MRZ can hold. */
const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/**
 * Worker options that keep tesseract on local files: `langPath` is the packaged LSTM-only data
 * (gzip, as shipped), `cacheMethod: 'none'` stops it reading or writing a cache in the cwd, and the
 * worker thread runs with fetch disabled. Exported so a test can check the paths.
 */
export function offlineOcrOptions(): Partial<WorkerOptions> {
  const dataPackage = path.dirname(require.resolve('@tesseract.js-data/eng'));
  return {
    langPath: path.join(dataPackage, '4.0.0_best_int'),
    gzip: true,
    cacheMethod: 'none',
    workerPath: fileURLToPath(new URL('./offlineWorker.mjs', import.meta.url)),
    logger: () => {},
  };
}

export interface OcrSymbol {
  text: string;
  confidence: number;
  x0: number;
  x1: number;
}
export interface OcrLine {
  x0: number;
  x1: number;
  symbols: OcrSymbol[];
}

export interface OcrEngine {
  readLines(png: Buffer): Promise<OcrLine[]>;
  close(): Promise<void>;
}

/**
 * Starts one tesseract worker (about a second) set up for MRZ text. `overrides` exist for tests.
 * Without an errorHandler tesseract rethrows a failed job in the main thread (an uncaught error
 * ending the process); with one, a failed start never settles createWorker, so the handler
 * turns a start-up failure into this function's rejection.
 */
export async function createOcrEngine(overrides: Partial<WorkerOptions> = {}): Promise<OcrEngine> {
  let onError = (_: unknown): void => {};
  const startFailed = new Promise<never>((_, reject) => {
    onError = (data) => reject(new Error(`OCR worker failed to start: ${String(data)}`));
  });
  const options = {
    ...offlineOcrOptions(),
    ...overrides,
    errorHandler: (e: unknown) => onError(e),
  };
  const starting = createWorker('eng', OEM.LSTM_ONLY, options, {
    load_system_dawg: '0',
    load_freq_dawg: '0',
  });
  const worker: Worker = await Promise.race([starting, startFailed]);
  onError = () => {}; // later job failures reject their own promise
  await worker.setParameters({
    tessedit_char_whitelist: MRZ_ALPHABET,
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    user_defined_dpi: '300', // stops the per-image 'Estimating resolution' line on stderr
    // an MRZ is dark on light: no second pass over inverted lines (a half page read 1.4 s -> 0.95 s)
    tessedit_do_invert: '0',
  });
  // tesseract fails out of band (an unhandled rejection) when a job reaches a terminated worker:
  // no job starts once closing, and the worker ends a turn later, once a job just started is sent
  let closed = false;
  return {
    async readLines(png) {
      if (closed) throw new Error('the OCR engine is closed');
      const { data } = await worker.recognize(png, {}, { blocks: true, text: false });
      const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
      return lines.map((line) => ({
        x0: line.bbox.x0,
        x1: line.bbox.x1,
        symbols: line.words.flatMap((w) =>
          w.symbols.map((s) => ({
            text: s.text,
            confidence: s.confidence,
            x0: s.bbox.x0,
            x1: s.bbox.x1,
          })),
        ),
      }));
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise((resolve) => setImmediate(resolve));
      await worker.terminate();
    },
  };
}
