// basic_ocr: offline document reading in the worker (PDF417 licences, passport MRZ by OCR). It
// calls no provider: dl/idcard_authenticate read the PDF417 barcode (AAMVA) of barcode_image,
// back_image or front_image, dl_verify compares its fields with the document's, ppt_authenticate
// reads the MRZ of front_image with tesseract.js and checks its digits. Its config is empty.
// Images are admitted and decoded by imageReader.ts in worker threads, never on this event loop.
import { createOcrEngine, readMrz, type OcrEngine } from '@idv/docread';
import { ProviderRejected } from '../../outcomes.ts';
import type { Adapter, AdapterInput, AdapterOutput, WorkerConnector } from '../connector.ts';
import { documentImage } from './documentImage.ts';
import { compareWithLicence } from './fieldMatch.ts';
import { createImageReader, type ImageReader, type ImageReaderOptions } from './imageReader.ts';
import { licenceFields, licenceResult } from './licence.ts';
import { passportResult } from './passport.ts';

type Input = AdapterInput<'basic_ocr'>;

export interface BasicOcr {
  adapter: Adapter<'basic_ocr'>;
  /** Stops the image threads and the shared OCR worker, if one was started. */
  close(): Promise<void>;
}

export const connector: WorkerConnector<'basic_ocr'> = {
  type: 'basic_ocr',
  start: () => createBasicOcr(),
};

/**
 * An adapter that keeps its image threads and one OCR worker for all passport reads (started on
 * first use, about a second); the owner calls close() on shutdown. `today` is injectable for
 * expiry checks, `images` sizes the image pool.
 */
export function createBasicOcr(
  options: { today?: () => Date; images?: ImageReaderOptions } = {},
): BasicOcr {
  const today = options.today ?? (() => new Date());
  const images = createImageReader(options.images);
  let engine: Promise<OcrEngine> | undefined;
  const sharedEngine = () =>
    (engine ??= createOcrEngine().catch((err: unknown) => {
      engine = undefined; // the next read tries again
      throw err;
    }));
  return {
    adapter: (input) => serve(input, today(), images, sharedEngine),
    async close() {
      const started = engine;
      engine = undefined;
      await images.close();
      if (started) await (await started).close();
    },
  };
}

/** Stateless form: each call starts and stops its own image thread and OCR worker. */
export const basicOcr: Adapter<'basic_ocr'> = async (input) => {
  const images = createImageReader({ threads: 1 });
  let engine: Promise<OcrEngine> | undefined;
  try {
    return await serve(input, new Date(), images, () => (engine ??= createOcrEngine()));
  } finally {
    await images.close();
    if (engine) await (await engine).close();
  }
};

async function serve(
  input: Input,
  today: Date,
  images: ImageReader,
  ocr: () => Promise<OcrEngine>,
): Promise<AdapterOutput> {
  const { kind, document, signal } = input;
  signal.throwIfAborted();
  switch (kind) {
    case 'dl_authenticate':
    case 'idcard_authenticate': {
      const text = await barcodeText(document, images, signal);
      return { result: licenceResult(text, today), raw: { source: 'pdf417' } };
    }
    case 'dl_verify': {
      const text = await barcodeText(document, images, signal);
      return {
        result: compareWithLicence(document, licenceFields(text)),
        raw: { source: 'pdf417' },
      };
    }
    case 'ppt_authenticate': {
      const png = await images.greyPng(documentImage(document, 'passport'), signal);
      const mrz = await readMrz(await ocr(), png);
      signal.throwIfAborted();
      if (!mrz) throw new ProviderRejected('no machine readable zone found in front_image');
      return { result: passportResult(mrz, today), raw: { source: 'mrz', lines: mrz.length } };
    }
    default:
      throw new ProviderRejected(`basic_ocr does not serve ${kind}`);
  }
}

async function barcodeText(
  document: Record<string, unknown>,
  images: ImageReader,
  signal: AbortSignal,
) {
  const text = await images.pdf417(documentImage(document, 'barcode'), signal);
  if (text === undefined) throw new ProviderRejected('no PDF417 barcode found in the image');
  return text;
}
