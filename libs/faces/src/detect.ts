// Faces in a decoded image: where they are (detectFaces) and, for comparison, their 128-number
// descriptors (describeFaces; two photos of one person lie close, faceDistance). The image is
// scaled down first (box filter) to the size each step needs: the detector sees 512x512 whatever
// it is given, the descriptor's aligned 150x150 crop wants the face's own pixels.
import { faceEngine, type FaceApiModule } from './engine.ts';

/** RGBA pixels, 4 bytes each, row by row (what @idv/images decodes). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray | Buffer;
}

/** A face found, its box in fractions of the image's width and height (0 to 1). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** the detector's confidence, 0 to 1 */
  score: number;
}

export interface DescribedFace extends FaceBox {
  descriptor: Float32Array;
}

/** Below this the detector's guess is not a face (SSD MobileNet v1 scores real faces 0.75-1). */
export const MIN_FACE_SCORE = 0.5;
/** The longest side the detector is given: it works at 512x512, a larger copy only costs. */
export const DETECT_SIZE = 640;
/** The longest side for descriptors: a card portrait a tenth of a photo keeps ~130 px of face. */
export const DESCRIBE_SIZE = 1280;

export interface DetectOptions {
  minScore?: number;
  /**
   * Whether one face is all the caller needs to know of (a document's portrait): the Tiny Face
   * Detector looks first (a fifth of SSD's time) and SSD only when it found none, so nothing SSD
   * would find is missed. Unset: SSD alone, which finds the second, smaller or darker faces the
   * tiny one misses (every face counts in a selfie).
   */
  anyFace?: boolean;
}

/** The faces in `image`, largest first. */
export async function detectFaces(
  image: RgbaImage,
  options: DetectOptions = {},
): Promise<FaceBox[]> {
  const faceapi = await faceEngine('detector');
  return withTensor(faceapi, image, DETECT_SIZE, async (input, size) => {
    let found = options.anyFace
      ? await faceapi.detectAllFaces(input, tinyOptions(faceapi, options))
      : [];
    if (found.length === 0)
      found = await faceapi.detectAllFaces(input, detectorOptions(faceapi, options));
    return found.map((d) => boxOf(d.box, d.score, size)).sort(largestFirst);
  });
}

/** The faces in `image` with their descriptors, largest first. */
export async function describeFaces(
  image: RgbaImage,
  options: DetectOptions = {},
): Promise<DescribedFace[]> {
  const faceapi = await faceEngine('descriptor');
  return withTensor(faceapi, image, DESCRIBE_SIZE, async (input, size) => {
    // the tiny detector finds a selfie's or a card's portrait in a fifth of SSD's time; SSD, which
    // finds smaller and harder faces, looks again when it found none
    const describe = (detector: Parameters<FaceApiModule['detectAllFaces']>[1]) =>
      faceapi.detectAllFaces(input, detector).withFaceLandmarks().withFaceDescriptors();
    let found = await describe(tinyOptions(faceapi, options));
    if (found.length === 0) found = await describe(detectorOptions(faceapi, options));
    return found
      .map((f) => ({
        ...boxOf(f.detection.box, f.detection.score, size),
        descriptor: f.descriptor,
      }))
      .sort(largestFirst);
  });
}

/** Euclidean distance of two descriptors: under about 0.5 the same person (the table of docs/connectors.md, "basic_face"). */
export function faceDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

type DetectInput = Parameters<FaceApiModule['detectAllFaces']>[0];

const largestFirst = (a: FaceBox, b: FaceBox) => b.width * b.height - a.width * a.height;

function tinyOptions(faceapi: FaceApiModule, options: DetectOptions) {
  const scoreThreshold = options.minScore ?? MIN_FACE_SCORE;
  return new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold });
}

function detectorOptions(faceapi: FaceApiModule, options: DetectOptions) {
  return new faceapi.SsdMobilenetv1Options({
    minConfidence: options.minScore ?? MIN_FACE_SCORE,
    maxResults: 20,
  });
}

function boxOf(
  box: { x: number; y: number; width: number; height: number },
  score: number,
  size: { width: number; height: number },
): FaceBox {
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  return {
    x: round(box.x / size.width),
    y: round(box.y / size.height),
    width: round(box.width / size.width),
    height: round(box.height / size.height),
    score: round(score),
  };
}

/** Runs `work` on an RGB tensor of `image` scaled to at most `maxSide`, then frees it. */
async function withTensor<T>(
  faceapi: FaceApiModule,
  image: RgbaImage,
  maxSide: number,
  work: (input: DetectInput, size: { width: number; height: number }) => Promise<T>,
): Promise<T> {
  const rgb = scaledRgb(image, maxSide);
  const tensor = faceapi.tf.tensor3d(rgb.data, [rgb.height, rgb.width, 3], 'int32');
  try {
    return await work(tensor as never, rgb);
  } finally {
    tensor.dispose();
  }
}

/** The RGB pixels of `image`, averaged down (box filter) so its longest side is at most `maxSide`. */
export function scaledRgb(
  image: RgbaImage,
  maxSide: number,
): { width: number; height: number; data: Int32Array } {
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const sums = new Uint32Array(width * height * 3);
  const counts = new Uint32Array(width * height);
  // each column's cell, worked out once: the loop over the pixels only adds
  const column = new Int32Array(image.width);
  for (let x = 0; x < image.width; x++) column[x] = Math.min(width - 1, Math.floor(x * scale));
  const pixels = image.data;
  for (let y = 0, i = 0; y < image.height; y++) {
    const row = Math.min(height - 1, Math.floor(y * scale)) * width;
    for (let x = 0; x < image.width; x++, i += 4) {
      const cell = row + column[x]!;
      const at = cell * 3;
      sums[at]! += pixels[i]!;
      sums[at + 1]! += pixels[i + 1]!;
      sums[at + 2]! += pixels[i + 2]!;
      counts[cell]! += 1;
    }
  }
  const data = new Int32Array(width * height * 3);
  for (let cell = 0; cell < counts.length; cell++)
    for (let c = 0; c < 3; c++)
      data[cell * 3 + c] = Math.round(sums[cell * 3 + c]! / counts[cell]!);
  return { width, height, data };
}
