// basic_ocr: offline document reading in the worker (PDF417 licences, passport MRZ by OCR).
import type { Adapter, AdapterInput, AdapterOutput } from '../types.ts';
import { ProviderRejected } from '../../outcomes.ts';
import { readPdf417 } from './barcode.ts';
import { documentImage } from './documentImage.ts';
import { compareWithLicence } from './fieldMatch.ts';
import { licenceFields, licenceResult } from './licence.ts';
import { mrzFromOcr } from './mrzLines.ts';
import { repairMrz } from './mrzRepair.ts';
import { createOcrEngine, type OcrEngine } from './ocrEngine.ts';
import { passportResult } from './passport.ts';

export interface BasicOcr {
  adapter: Adapter;
  /** Stops the shared OCR worker, if one was started. */
  close(): Promise<void>;
}

/**
 * An adapter that keeps one OCR worker for all passport reads (started on first use, about a
 * second); the owner calls close() on shutdown. `today` is injectable for expiry checks.
 */
export function createBasicOcr(options: { today?: () => Date } = {}): BasicOcr {
  const today = options.today ?? (() => new Date());
  let engine: Promise<OcrEngine> | undefined;
  const sharedEngine = () =>
    (engine ??= createOcrEngine().catch((err: unknown) => {
      engine = undefined; // the next read tries again
      throw err;
    }));
  return {
    adapter: (input) => serve(input, today(), sharedEngine),
    async close() {
      const started = engine;
      engine = undefined;
      if (started) await (await started).close();
    },
  };
}

/** Stateless form: each passport read starts and stops its own OCR worker. */
export const basicOcr: Adapter = async (input) => {
  let engine: Promise<OcrEngine> | undefined;
  try {
    return await serve(input, new Date(), () => (engine ??= createOcrEngine()));
  } finally {
    if (engine) await (await engine).close();
  }
};

async function serve(
  input: AdapterInput,
  today: Date,
  ocr: () => Promise<OcrEngine>,
): Promise<AdapterOutput> {
  const { kind, document, signal } = input;
  signal.throwIfAborted();
  switch (kind) {
    case 'dl_authenticate':
    case 'idcard_authenticate': {
      const text = await barcodeText(document, signal);
      return { result: licenceResult(text, today), raw: { source: 'pdf417' } };
    }
    case 'dl_verify': {
      const text = await barcodeText(document, signal);
      return {
        result: compareWithLicence(document, licenceFields(text)),
        raw: { source: 'pdf417' },
      };
    }
    case 'ppt_authenticate': {
      const image = await documentImage(document, 'passport');
      const png = await image.greyPng();
      signal.throwIfAborted();
      const lines = mrzFromOcr(await (await ocr()).readLines(png));
      signal.throwIfAborted();
      if (!lines) throw new ProviderRejected('no machine readable zone found in front_image');
      const mrz = repairMrz(lines);
      return { result: passportResult(mrz, today), raw: { source: 'mrz', lines: mrz.length } };
    }
    default:
      throw new ProviderRejected(`basic_ocr does not serve ${kind}`);
  }
}

async function barcodeText(document: Record<string, unknown>, signal: AbortSignal) {
  const image = await documentImage(document, 'barcode');
  signal.throwIfAborted();
  const text = await readPdf417(image.pixels);
  if (text === undefined) throw new ProviderRejected('no PDF417 barcode found in the image');
  return text;
}
