// Picks the image a kind reads from the request's document: its bytes and the field they came
// from. Nothing is decoded here: imageReader.ts admits and decodes off the event loop.
import { DEFAULT_IMAGE_LIMITS } from '@idv/images';
import { ProviderRejected } from '../../outcomes.ts';
import { base64Image } from '../shared/offlineImages.ts';

/** Fields tried in order: the barcode is usually on its own image, else on the back. */
const IMAGE_FIELDS = {
  barcode: ['barcode_image', 'back_image', 'front_image'],
  passport: ['front_image'],
} as const;

export interface DocumentImage {
  field: string;
  bytes: Buffer;
}

export function documentImage(
  document: Record<string, unknown>,
  purpose: keyof typeof IMAGE_FIELDS,
  maxBytes = DEFAULT_IMAGE_LIMITS.maxBytes,
): DocumentImage {
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
  return { field, bytes: base64Image(document[field] as string, field, maxBytes) };
}
