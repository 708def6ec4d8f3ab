// Reads what adapters send from the /verify document: the face pair, document images, a person.
import { Refused } from '../../outcomes.ts';
import { asString, defined } from './normalise.ts';

/** An image as the caller gave it: base64 bytes or a presigned URL. */
export interface ImageRef {
  image?: string;
  url?: string;
}

function imageRef(document: Record<string, unknown>, field: string): ImageRef | undefined {
  const image = asString(document[field]);
  const url = asString(document[`${field}Url`]);
  if (image) return { image };
  if (url) return { url };
  return undefined;
}

/** Spec 2.2 face_compare rules: image1 with image2 when image1 is given, else liveId with image2. */
export function facePair(document: Record<string, unknown>): {
  source: ImageRef;
  target: ImageRef;
} {
  const source = imageRef(document, 'image1') ?? imageRef(document, 'liveId');
  const target = imageRef(document, 'image2');
  if (!source || !target) throw new Refused('invalid_input', 'face_compare needs two images');
  return { source, target };
}

const DOCUMENT_IMAGES = ['front_image', 'back_image', 'barcode_image', 'front_image_flash'];

/** Document sides for authentication, base64 and URL members as given (only those present). */
export function documentImages(document: Record<string, unknown>): Record<string, string> {
  const images: Record<string, string> = {};
  for (const side of DOCUMENT_IMAGES) {
    const image = asString(document[side]);
    const url = asString(document[`${side}_url`]);
    if (image) images[side] = image;
    if (url) images[`${side}_url`] = url;
  }
  if (Object.keys(images).length === 0)
    throw new Refused('invalid_input', 'no document image given');
  return images;
}

/** The single image of document liveness or face liveness. */
export function singleImage(document: Record<string, unknown>, field: string): ImageRef {
  const ref = imageRef(document, field);
  if (!ref) throw new Refused('invalid_input', `${field} or ${field}Url is required`);
  return ref;
}

/** yyyyMMdd, yyyy/MM/dd and yyyy-MM-dd all become yyyy-MM-dd. */
export function isoDate(value: unknown): string | undefined {
  const text = asString(value);
  const match = text ? /^(\d{4})[-/]?(\d{2})[-/]?(\d{2})$/.exec(text) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : text;
}

const PERSON_FIELDS = [
  'firstName',
  'middleName',
  'lastName',
  'street',
  'city',
  'state',
  'zipCode',
  'country',
  'phone',
  'email',
];

/** The person of ssn_verify / person_verify / dl_verify, dates normalised, SSN as digits. */
export function personOf(document: Record<string, unknown>): Record<string, string> {
  const person: Record<string, string | undefined> = {};
  for (const field of PERSON_FIELDS) person[field] = asString(document[field]);
  person.dob = isoDate(document.dob);
  person.ssn = asString(document.ssn)?.replace(/\D/g, '');
  return defined(person) as Record<string, string>;
}

/** The document type of an authenticate kind: dl, ppt or idcard. */
export function documentKind(kind: string): 'dl' | 'ppt' | 'idcard' {
  if (kind === 'ppt_authenticate') return 'ppt';
  if (kind === 'idcard_authenticate') return 'idcard';
  return 'dl';
}
