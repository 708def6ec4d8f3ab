// The face models, loaded once per thread: @vladmandic/face-api (MIT) on TensorFlow.js's WebAssembly
// backend (@tensorflow/tfjs-backend-wasm, Apache-2.0), with the weights the package ships in its
// `model/` folder (SSD MobileNet v1 and the Tiny Face Detector to find faces; for descriptors the
// 68-point landmarks and the ResNet-34-like recognition net; face-api.js's weights, MIT). Nothing is fetched: the .wasm
// binaries and the weights are read from node_modules. tfjs-node's native binaries are not used:
// they download from outside the npm registry at install time.
// CPU work: call it from a worker thread (a capture-check image thread, a connector's face thread),
// never from a service's event loop. Each thread holds its own copy (about 60 MB with the
// detector, 90 MB with the recognition net, outside the V8 heap).
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as FaceApi from '@vladmandic/face-api';

const require = createRequire(import.meta.url);

export type FaceApiModule = typeof FaceApi;

/** What a caller needs loaded: detection alone, or detection with the descriptor's nets. */
export type FaceModels = 'detector' | 'descriptor';

/** The folder of the weights inside the face-api package. */
export const MODEL_DIR = path.join(
  path.dirname(require.resolve('@vladmandic/face-api/package.json')),
  'model',
);

interface Backends {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
}

let api: Promise<FaceApiModule> | undefined;
const loaded = new Map<FaceModels, Promise<void>>();

/** face-api on the WebAssembly backend, its .wasm files read from the package's own folder. */
function faceApi(): Promise<FaceApiModule> {
  api ??= (async () => {
    const wasm = require('@tensorflow/tfjs-backend-wasm') as {
      setWasmPaths(prefix: string): void;
    };
    const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
    wasm.setWasmPaths(path.join(wasmDir, 'dist') + path.sep);
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApiModule;
    // the bundle's tf is @tensorflow/tfjs itself; its types name only the core
    const tf = faceapi.tf as unknown as Backends;
    if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
    await tf.ready();
    return faceapi;
  })();
  return api;
}

/** face-api with `models` loaded (each once per thread). */
export async function faceEngine(models: FaceModels): Promise<FaceApiModule> {
  const faceapi = await faceApi();
  let loading = loaded.get(models);
  if (!loading) {
    loading =
      models === 'detector'
        ? Promise.all([
            faceapi.nets.ssdMobilenetv1.loadFromDisk(MODEL_DIR),
            faceapi.nets.tinyFaceDetector.loadFromDisk(MODEL_DIR),
          ]).then(() => undefined)
        : Promise.all([
            faceEngine('detector'),
            faceapi.nets.faceLandmark68Net.loadFromDisk(MODEL_DIR),
            faceapi.nets.faceRecognitionNet.loadFromDisk(MODEL_DIR),
          ]).then(() => undefined);
    loaded.set(models, loading);
  }
  await loading;
  return faceapi;
}
