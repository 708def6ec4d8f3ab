// Reads the PDF417 of a licence with zxing-wasm, its wasm loaded from the package, never a CDN.
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

/** The text of the first valid PDF417 in the image (RGBA pixels), or undefined if there is none. */
export async function readPdf417(image: Pixmap): Promise<string | undefined> {
  prepareZXingModule({ overrides: packagedWasm() });
  const input = {
    data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
    colorSpace: 'srgb',
  } as unknown as Parameters<typeof readBarcodes>[0];
  const results = await readBarcodes(input, {
    formats: ['PDF417'],
    tryHarder: true,
    textMode: 'Plain',
    maxNumberOfSymbols: 1,
  });
  return results.find((r) => r.isValid)?.text;
}
