// Images reach the sandbox as base64 or as a URL; a URL's last path segment is read as the image's
// content (so `https://bucket.example/FACE:testy` is Testy's face) since the sandbox fetches nothing.
import { imageText } from '../fixtures.ts';

export function textOfImage(ref: unknown): string {
  if (typeof ref !== 'object' || ref === null) return '';
  const { image, url } = ref as { image?: unknown; url?: unknown };
  if (typeof image === 'string') return imageText(image);
  if (typeof url === 'string') return textOfUrl(url);
  return '';
}

export function textOfUrl(url: string): string {
  try {
    const path = new URL(url).pathname;
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return '';
  }
}

/** The text of the first document image given (front first), base64 or URL. */
export function textOfDocument(images: Record<string, unknown>): string {
  for (const side of ['front_image', 'front_image_flash', 'back_image', 'barcode_image']) {
    if (typeof images[side] === 'string') return imageText(images[side]);
    if (typeof images[`${side}_url`] === 'string')
      return textOfUrl(images[`${side}_url`] as string);
  }
  return '';
}
