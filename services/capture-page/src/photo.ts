// Preparing a photo for upload. Every file is decoded first (EXIF orientation applied), so a file
// that is not a picture is caught here, before it is sent or costs an attempt. A JPEG, PNG or
// WebP of at most AS_IS_BYTES and AS_IS_PIXELS goes as it is (nothing of it lost); anything bigger
// or of another image type is drawn into a canvas at most MAX_EDGE on its long side (what the
// server's checks work at) and re-encoded as JPEG, metadata dropped, compressed step by step until
// it fits TARGET_BYTES: on a slow phone connection a 3 MB photo took 35 s to send as it was.
const SENDABLE = ['image/jpeg', 'image/png', 'image/webp'];

/** A photo this small (bytes and pixels) is sent untouched. */
const AS_IS_BYTES = 1_500_000;
const AS_IS_PIXELS = 12_000_000;
/** Longest side a re-encoded photo keeps: the server's checks work at 2000 px. */
const MAX_EDGE = 2000;
/** Never scaled below this long side: the server refuses smaller documents as too_small. */
const MIN_EDGE = 800;
/** What a re-encoded photo aims under: about 5 s of upload on a slow mobile connection. */
export const TARGET_BYTES = 300_000;
const QUALITIES = [0.8, 0.7, 0.62, 0.55, 0.5];

export type Prepared = { ok: true; image: Blob } | { ok: false; reason: 'notAnImage' | 'tooLarge' };

type Source = CanvasImageSource & { width: number; height: number };

function canvasBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** `source` drawn at a long side of `edge` (never enlarged). */
function scaled(source: Source, edge: number): HTMLCanvasElement | undefined {
  const scale = Math.min(1, edge / Math.max(source.width, source.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(source.width * scale);
  canvas.height = Math.round(source.height * scale);
  const context = canvas.getContext('2d');
  if (!context) return undefined;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/**
 * The JPEG of `source` under `maxBytes` (and under TARGET_BYTES when it can be, above MIN_EDGE),
 * trying lower qualities, then smaller sizes; undefined if none fits `maxBytes`.
 */
export async function fitJpeg(source: Source, maxBytes: number): Promise<Blob | undefined> {
  const longest = Math.max(source.width, source.height);
  const floor = Math.min(longest, MIN_EDGE);
  let smallest: Blob | undefined;
  for (let edge = Math.min(longest, MAX_EDGE); ; edge = Math.round(edge * 0.75)) {
    const at = Math.max(edge, floor);
    const canvas = scaled(source, at);
    if (!canvas) return undefined;
    for (const quality of QUALITIES) {
      const blob = await canvasBlob(canvas, quality);
      if (!blob) continue;
      if (blob.size <= Math.min(maxBytes, TARGET_BYTES)) return blob;
      if (blob.size <= maxBytes && (!smallest || blob.size < smallest.size)) smallest = blob;
    }
    // at the floor: the smallest that the server takes, even over the target
    if (at <= floor) return smallest;
  }
}

/** The image to upload for a chosen file. */
export async function preparePhoto(file: Blob, maxBytes: number): Promise<Prepared> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { ok: false, reason: 'notAnImage' };
  }
  try {
    const small = file.size <= Math.min(AS_IS_BYTES, maxBytes);
    if (SENDABLE.includes(file.type) && small && bitmap.width * bitmap.height <= AS_IS_PIXELS)
      return { ok: true, image: file };
    const image = await fitJpeg(bitmap, maxBytes);
    return image ? { ok: true, image } : { ok: false, reason: 'tooLarge' };
  } finally {
    bitmap.close();
  }
}

/** The current frame of a playing video as a JPEG under `maxBytes`. */
export async function grabFrame(
  video: HTMLVideoElement,
  maxBytes: number,
): Promise<Blob | undefined> {
  const frame = { width: video.videoWidth, height: video.videoHeight };
  if (!frame.width || !frame.height) return undefined;
  const canvas = document.createElement('canvas');
  canvas.width = frame.width;
  canvas.height = frame.height;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  return fitJpeg(canvas, maxBytes);
}
