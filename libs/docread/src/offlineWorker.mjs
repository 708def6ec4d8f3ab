// Tesseract's worker thread with network access removed, so language data and core can only come from disk.

// The worker script captures global fetch when it loads; replacing it first (hence the dynamic
// import) makes any attempt to download, a CDN langPath or an image URL, fail instead of going online.
globalThis.fetch = () =>
  Promise.reject(new Error('basic_ocr runs offline: the OCR worker may not fetch anything'));
await import('tesseract.js/src/worker-script/node/index.js');
