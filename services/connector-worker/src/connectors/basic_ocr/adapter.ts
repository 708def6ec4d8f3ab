// basic_ocr: offline document reading in the worker (PDF417 licences, passport MRZ by OCR). It
// calls no provider: dl/idcard_authenticate read the PDF417 barcode (AAMVA) of barcode_image,
// back_image or front_image, dl_verify compares its fields with the document's, ppt_authenticate
// reads the MRZ of front_image with tesseract.js and checks its digits. Its config is empty.
import { createOcrEngine, readMrz, readPdf417, type OcrEngine } from '@idv/docread';
import { ProviderRejected } from '../../outcomes.ts';
import type { Adapter, AdapterInput, AdapterOutput, WorkerConnector } from '../connector.ts';
import { documentImage } from './documentImage.ts';
import { compareWithLicence } from './fieldMatch.ts';
import { licenceFields, licenceResult } from './licence.ts';
import { passportResult } from './passport.ts';

type Input = AdapterInput<'basic_ocr'>;

export interface BasicOcr {
  adapter: Adapter<'basic_ocr'>;
  /** Stops the shared OCR worker, if one was started. */
  close(): Promise<void>;
}

export const connector: WorkerConnector<'basic_ocr'> = {
  type: 'basic_ocr',
  start: () => createBasicOcr(),
};

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
export const basicOcr: Adapter<'basic_ocr'> = async (input) => {
  let engine: Promise<OcrEngine> | undefined;
  try {
    return await serve(input, new Date(), () => (engine ??= createOcrEngine()));
  } finally {
    if (engine) await (await engine).close();
  }
};

async function serve(
  input: Input,
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
      const mrz = await readMrz(await ocr(), png);
      signal.throwIfAborted();
      if (!mrz) throw new ProviderRejected('no machine readable zone found in front_image');
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
