// The images of a /verify document that would cost too much to decode: a base64 member that is a
// PNG, JPEG or WebP whose header (read strictly by @idv/images, nothing decoded) gives more pixels
// or decoded bytes than the platform's image limits. Such a request is answered 422 naming the
// member before anything is stored or sent to a connector. Bytes of another format go on as they
// are: the verifier's provider judges them. On the /verify path: only the start of each member is
// turned from base64 (a header is there), the whole of it only for a JPEG whose frame header comes
// later (after large EXIF or ICC segments).
import { DOCUMENT_IMAGE_MEMBERS, type ValidationIssue, type VerifyRequest } from '@idv/contracts';
import { admitImage, DEFAULT_IMAGE_LIMITS, ImageRefused, sniffFormat } from '@idv/images';

/** Base64 characters read first: 192 KiB of bytes, past the APP segments of most photos. */
const HEAD_CHARS = 256 * 1024;

/** One issue per base64 image member (the members of DOCUMENT_IMAGE_MEMBERS but the URLs) over the limits. */
export function costlyImageIssues(request: VerifyRequest): ValidationIssue[] {
  const document = request.document as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const member of DOCUMENT_IMAGE_MEMBERS) {
    const value = document[member];
    if (typeof value !== 'string' || value.length === 0 || member.toLowerCase().endsWith('url'))
      continue;
    const refusal = overLimit(value);
    if (refusal) issues.push({ path: `/document/${member}`, message: refusal });
  }
  return issues;
}

/** Why the image in `base64` is over the limits, or undefined (within them, or not an image). */
function overLimit(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, HEAD_CHARS), 'base64');
  if (sniffFormat(head) === undefined) return undefined;
  const whole = base64.length <= HEAD_CHARS;
  try {
    admitImage(head, DEFAULT_IMAGE_LIMITS);
    return undefined;
  } catch (err) {
    if (!(err instanceof ImageRefused)) throw err;
    if (err.reason === 'over_limit') return err.message;
    if (whole || err.reason !== 'undecodable') return undefined;
  }
  // the header was not within the first bytes: read it from all of them
  try {
    admitImage(Buffer.from(base64, 'base64'), DEFAULT_IMAGE_LIMITS);
  } catch (err) {
    if (err instanceof ImageRefused && err.reason === 'over_limit') return err.message;
  }
  return undefined;
}
