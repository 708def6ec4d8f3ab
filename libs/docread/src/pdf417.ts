// Reads barcodes with zxing-wasm, its wasm loaded from the package, never a CDN: the PDF417 of a
// licence, and any other symbol zxing knows (the browser suite reads the capture page's QR code).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);

// zxing keeps one module instance per process and re-instantiates when `overrides` differ by
// identity, so the packaged binary is read once and the same overrides object reused.
let overrides: { wasmBinary: ArrayBuffer } | undefined;

function packagedWasm(): { wasmBinary: ArrayBuffer } {
  if (!overrides) {
    const file = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    overrides = { wasmBinary: new Uint8Array(file).buffer };
  }
  return overrides;
}

export interface Pixmap {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The text of the first valid symbol of `format` in the image (RGBA pixels), else undefined. */
export async function readBarcode(
  image: Pixmap,
  format: 'PDF417' | 'QRCode',
): Promise<string | undefined> {
  prepareZXingModule({ overrides: packagedWasm() });
  const input = {
    data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
    colorSpace: 'srgb',
  } as unknown as Parameters<typeof readBarcodes>[0];
  const results = await readBarcodes(input, {
    formats: [format],
    tryHarder: true,
    textMode: 'Plain',
    maxNumberOfSymbols: 1,
  });
  return results.find((r) => r.isValid)?.text;
}

/** The text of the first valid PDF417 in the image (RGBA pixels), or undefined if there is none. */
export function readPdf417(image: Pixmap): Promise<string | undefined> {
  return readBarcode(image, 'PDF417');
}
