// Picks the image a kind reads from the request's document: its bytes and the field they came
// from. Nothing is decoded here: imageReader.ts admits and decodes off the event loop.
import { DEFAULT_IMAGE_LIMITS } from '@idv/images';
import { ProviderRejected, Refused } from '../../outcomes.ts';

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
  const base64 = stripDataUrl(document[field] as string);
  // refused before the bytes are made: base64 takes 4 characters for 3 bytes
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 2)
    throw new Refused('invalid_input', `${field} is refused: over the limit of ${maxBytes} bytes`);
  return { field, bytes: Buffer.from(base64, 'base64') };
}

function stripDataUrl(value: string): string {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  return comma >= 0 ? value.slice(comma + 1) : value;
}
