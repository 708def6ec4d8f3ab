// The selfie camera's face detector: face-api's TinyFaceDetector on TensorFlow.js (./tfjs.ts) with
// its WASM backend (SIMD), the weights and the WebAssembly hashed assets of the page. Camera.tsx
// imports this module dynamically when the selfie camera opens, so none of it is in the first
// load. WASM needs 'wasm-unsafe-eval' in the page's CSP: measured in Chromium it detects 14 times
// faster than the CPU backend (35 ms against 505 ms a frame; 140 ms against 2.3 s at 4x CPU
// throttling), and WebGL has no GPU on many phones' browsers nor here.
import { getBackend, io, ready, setBackend } from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import simdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import plainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import {
  TinyFaceDetector,
  TinyFaceDetectorOptions,
} from '@vladmandic/face-api/dist/face-api.esm-nobundle.js';
import manifest from '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json';
import weightsUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url';

/** A face found, its box in shares (0-1) of the frame's width and height. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** Frames are scaled to this long side: at 160 the detector misses faces a quarter of the frame high. */
const INPUT_SIZE = 224;
/** Detections under this score are not faces. */
const MIN_SCORE = 0.45;

export interface FaceDetector {
  /** The faces in the current frame of `video`, largest first. */
  detect(video: HTMLVideoElement): Promise<FaceBox[]>;
}

/** The detector with its weights loaded; rejects when they cannot be fetched or WASM fails. */
export async function loadFaceDetector(): Promise<FaceDetector> {
  // the threaded build needs cross-origin isolation, which the page does not have
  setWasmPaths({
    'tfjs-backend-wasm.wasm': plainUrl,
    'tfjs-backend-wasm-simd.wasm': simdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': simdUrl,
  });
  const response = await fetch(weightsUrl);
  if (!response.ok) throw new Error(`face detector weights: HTTP ${response.status}`);
  const weights = await response.arrayBuffer();
  if (getBackend() !== 'wasm' && !(await setBackend('wasm')))
    throw new Error('no WebAssembly backend');
  await ready();
  const net = new TinyFaceDetector();
  const entries = (manifest as io.WeightsManifestConfig).flatMap((group) => group.weights);
  // face-api's types name the Tensor of its own bundled tfjs: the same class at run time
  type WeightMap = Parameters<typeof net.loadFromWeightMap>[0];
  net.loadFromWeightMap(io.decodeWeights(weights, entries) as unknown as WeightMap);
  const options = new TinyFaceDetectorOptions({ inputSize: INPUT_SIZE, scoreThreshold: MIN_SCORE });
  const canvas = document.createElement('canvas');
  return {
    async detect(video) {
      const scale = INPUT_SIZE / Math.max(video.videoWidth, video.videoHeight);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
      const found = await net.locateFaces(canvas, options);
      return found
        .map(({ relativeBox: box, score }) => ({
          x: box.x,
          y: box.y,
          width: box.width,
          height: box.height,
          score,
        }))
        .sort((a, b) => b.width * b.height - a.width * a.height);
    },
  };
}
