// Preparing a photo for upload: a JPEG, PNG or WebP small enough is sent as it is (untouched, so
// nothing of it is lost); anything bigger or of another image type is drawn into a canvas and
// re-encoded as JPEG, scaled down and compressed step by step until it fits under the limit.
const SENDABLE = ['image/jpeg', 'image/png', 'image/webp'];

/** Longest side a re-encoded photo keeps; the checks need far less, a phone takes far more. */
const MAX_EDGE = 2400;
/** Never scaled below this long side: the server refuses smaller documents as too_small. */
const MIN_EDGE = 800;
const QUALITIES = [0.9, 0.8, 0.7, 0.6, 0.5];

export type Prepared = { ok: true; image: Blob } | { ok: false; reason: 'notAnImage' | 'tooLarge' };

function canvasBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** Draws `source` scaled to a long side of `edge` (never enlarged) and encodes it as JPEG. */
async function encode(
  source: CanvasImageSource & { width: number; height: number },
  edge: number,
  quality: number,
): Promise<Blob | null> {
  const scale = Math.min(1, edge / Math.max(source.width, source.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(source.width * scale);
  canvas.height = Math.round(source.height * scale);
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvasBlob(canvas, quality);
}

/** The JPEG of `source` under `maxBytes`, trying smaller sizes and qualities; undefined if none fits. */
export async function fitJpeg(
  source: CanvasImageSource & { width: number; height: number },
  maxBytes: number,
): Promise<Blob | undefined> {
  const longest = Math.max(source.width, source.height);
  for (let edge = Math.min(longest, MAX_EDGE); ; edge = Math.round(edge * 0.75)) {
    const floor = Math.min(longest, MIN_EDGE);
    const at = Math.max(edge, floor);
    for (const quality of QUALITIES) {
      const blob = await encode(source, at, quality);
      if (blob && blob.size <= maxBytes) return blob;
    }
    if (at <= floor) return undefined;
  }
}

/** The image to upload for a chosen file. */
export async function preparePhoto(file: Blob, maxBytes: number): Promise<Prepared> {
  if (SENDABLE.includes(file.type) && file.size <= maxBytes) return { ok: true, image: file };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, reason: 'notAnImage' };
  }
  try {
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
