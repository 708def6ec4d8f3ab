// Face detection and comparison on decoded pixels, offline (engine.ts: face-api on TensorFlow.js's
// WebAssembly backend, the package's own weights). Used by the capture checks' image threads
// (a face in the selfie, a portrait on the document) and the basic_face connector (selfie against
// the document's portrait).
export { faceEngine, MODEL_DIR, type FaceModels } from './engine.ts';
export {
  describeFaces,
  DESCRIBE_SIZE,
  DETECT_SIZE,
  detectFaces,
  faceDistance,
  MIN_FACE_SCORE,
  scaledRgb,
  type DescribedFace,
  type DetectOptions,
  type FaceBox,
  type RgbaImage,
} from './detect.ts';
