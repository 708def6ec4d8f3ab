// Measures of a decoded image for the local capture checks: its mean luminance, and the variance
// of its Laplacian (a sharp image has strong edges, a blurred one hardly any), both on a grey copy
// scaled to a fixed working size so the numbers mean the same whatever the camera.

/** RGBA pixels, 4 bytes each, row by row. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray | Buffer;
}

export interface Measures {
  /** mean luminance 0..255 */
  luminance: number;
  /** variance of the 4-neighbour Laplacian of the working copy */
  sharpness: number;
}

/** The longest side of the working copy. */
export const WORKING_SIZE = 640;

/** A grey working copy, each pixel the mean of the source pixels it covers (box filter). */
export function greyWorkingCopy(bitmap: Bitmap): {
  width: number;
  height: number;
  grey: Float32Array;
} {
  const scale = Math.min(1, WORKING_SIZE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const sums = new Float64Array(width * height);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < bitmap.height; y++) {
    const row = Math.min(height - 1, Math.floor(y * scale)) * width;
    for (let x = 0; x < bitmap.width; x++) {
      const i = (y * bitmap.width + x) * 4;
      const luma =
        0.299 * bitmap.data[i]! + 0.587 * bitmap.data[i + 1]! + 0.114 * bitmap.data[i + 2]!;
      const cell = row + Math.min(width - 1, Math.floor(x * scale));
      sums[cell]! += luma;
      counts[cell]! += 1;
    }
  }
  const grey = new Float32Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = counts[i]! > 0 ? sums[i]! / counts[i]! : 0;
  return { width, height, grey };
}

export function measure(bitmap: Bitmap): Measures {
  const { width, height, grey } = greyWorkingCopy(bitmap);
  let total = 0;
  for (const value of grey) total += value;
  let sum = 0;
  let sumSquares = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const laplacian =
        grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += laplacian;
      sumSquares += laplacian * laplacian;
      n += 1;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  return {
    luminance: grey.length > 0 ? total / grey.length : 0,
    sharpness: n > 0 ? sumSquares / n - mean * mean : 0,
  };
}
