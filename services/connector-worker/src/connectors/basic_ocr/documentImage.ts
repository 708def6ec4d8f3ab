// Picks the image a kind reads from the request's document and decodes it (PNG, JPEG, BMP...).
import { Jimp } from 'jimp';
import { ProviderRejected } from '../../outcomes.ts';

/** Fields tried in order: the barcode is usually on its own image, else on the back. */
const IMAGE_FIELDS = {
  barcode: ['barcode_image', 'back_image', 'front_image'],
  passport: ['front_image'],
} as const;

export interface DecodedImage {
  pixels: { data: Uint8Array; width: number; height: number };
  /** Greyscale PNG, the form the OCR reads best. */
  greyPng(): Promise<Buffer>;
}

export async function documentImage(
  document: Record<string, unknown>,
  purpose: keyof typeof IMAGE_FIELDS,
): Promise<DecodedImage> {
  const fields = IMAGE_FIELDS[purpose];
  const field = fields.find((f) => typeof document[f] === 'string' && document[f] !== '');
  if (!field) {
    const urlField = fields.map((f) => `${f}_url`).find((f) => typeof document[f] === 'string');
    throw new ProviderRejected(
      urlField
        ? `basic_ocr works offline and cannot fetch ${urlField}; send the image as base64 in ${urlField.slice(0, -4)}`
        : `no image given: expected base64 in one of ${fields.join(', ')}`,
    );
  }
  const bytes = Buffer.from(stripDataUrl(document[field] as string), 'base64');
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(bytes);
  } catch {
    throw new ProviderRejected(`${field} is not a decodable image`);
  }
  const { data, width, height } = image.bitmap;
  return {
    pixels: { data: new Uint8Array(data), width, height },
    greyPng: () => image.clone().greyscale().getBuffer('image/png'),
  };
}

function stripDataUrl(value: string): string {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  return comma >= 0 ? value.slice(comma + 1) : value;
}
