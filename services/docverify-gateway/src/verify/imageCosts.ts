// The images of a /verify document that would cost too much to decode: a base64 member that is a
// PNG, JPEG or WebP whose header (read strictly by @idv/images, nothing decoded) gives more pixels
// or decoded bytes than the platform's image limits. Such a request is answered 422 naming the
// member before anything is stored or sent to a connector. Bytes of another format go on as they
// are: the verifier's provider judges them. On the /verify path: only the start of each member is
// turned from base64 (a header is there), the whole of it only for a JPEG whose frame header comes
// later (after large EXIF or ICC segments). The images within the limits are what the request
// charges its community's image budget (decodeCost).
import { DOCUMENT_IMAGE_MEMBERS, type ValidationIssue, type VerifyRequest } from '@idv/contracts';
import {
  admitImage,
  decodeCost,
  DEFAULT_IMAGE_LIMITS,
  ImageRefused,
  sniffFormat,
  type ImageHeader,
} from '@idv/images';

/** Base64 characters read first: 192 KiB of bytes, past the APP segments of most photos. */
const HEAD_CHARS = 256 * 1024;

export interface ImageCosts {
  /** one issue per base64 image member over the limits */
  issues: ValidationIssue[];
  /** what decoding the images within them costs (decodeCost, summed): the community's image budget is charged this */
  bytes: number;
}

/** The base64 image members (those of DOCUMENT_IMAGE_MEMBERS but the URLs): over the limits, and what the others cost. */
export function imageCosts(request: VerifyRequest): ImageCosts {
  const document = request.document as Record<string, unknown>;
  const costs: ImageCosts = { issues: [], bytes: 0 };
  for (const member of DOCUMENT_IMAGE_MEMBERS) {
    const value = document[member];
    if (typeof value !== 'string' || value.length === 0 || member.toLowerCase().endsWith('url'))
      continue;
    const read = headerOf(value);
    if (typeof read === 'string') costs.issues.push({ path: `/document/${member}`, message: read });
    else if (read) costs.bytes += decodeCost(read);
  }
  return costs;
}

/**
 * The header of the image in `base64`, or why it is over the limits; undefined when it is not an
 * image (or not one that can be read: the verifier's provider judges it).
 */
function headerOf(member: string): ImageHeader | string | undefined {
  // the contract lets base64 carry whitespace, which decoders skip: without it here, a member
  // opening with 256 KiB of spaces would read as no image at all, and cost nothing
  const base64 = /\s/.test(member) ? member.replace(/\s+/g, '') : member;
  const head = Buffer.from(base64.slice(0, HEAD_CHARS), 'base64');
  if (sniffFormat(head) === undefined) return undefined;
  const whole = base64.length <= HEAD_CHARS;
  try {
    return admitImage(head, DEFAULT_IMAGE_LIMITS);
  } catch (err) {
    if (!(err instanceof ImageRefused)) throw err;
    if (err.reason === 'over_limit') return err.message;
    if (whole || err.reason !== 'undecodable') return undefined;
  }
  // the header was not within the first bytes: read it from all of them
  try {
    return admitImage(Buffer.from(base64, 'base64'), DEFAULT_IMAGE_LIMITS);
  } catch (err) {
    if (err instanceof ImageRefused && err.reason === 'over_limit') return err.message;
  }
  return undefined;
}
