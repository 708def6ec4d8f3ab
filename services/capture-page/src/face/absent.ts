// Stands in for the TensorFlow.js backends face-api's esm-nobundle build imports by path (the
// WebGL and WASM ones, vite.config.ts points them here): ./detector.ts registers the one it runs on.
export {};
