// Public surface of libs/docread: reading documents offline, shared by the basic_ocr connector and
// the gateway's capture checks: PDF417 barcodes (zxing-wasm) and passport MRZ (tesseract.js).
export { readBarcode, readPdf417, type Pixmap } from './pdf417.ts';
export {
  createOcrEngine,
  offlineOcrOptions,
  type OcrEngine,
  type OcrLine,
  type OcrSymbol,
} from './ocrEngine.ts';
export { mrzFromOcr } from './mrzLines.ts';
export { checkDigit, repairMrz } from './mrzRepair.ts';
export { mrzDigitsHold, readMrz } from './mrzRead.ts';
