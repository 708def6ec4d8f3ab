// The images of a /verify document that would cost too much to decode: a base64 member that is a
// PNG, JPEG or WebP whose header (read strictly by @idv/images, nothing decoded) gives more pixels
// or decoded bytes than the platform's image limits. Such a request is answered 422 naming the
// member before anything is stored or sent to a connector. Bytes of another format go on as they
// are: the verifier's provider judges them.
import { DOCUMENT_IMAGE_MEMBERS, type ValidationIssue, type VerifyRequest } from '@idv/contracts';
import { admitImage, DEFAULT_IMAGE_LIMITS, ImageRefused, sniffFormat } from '@idv/images';

/** One issue per base64 image member (the members of DOCUMENT_IMAGE_MEMBERS but the URLs) over the limits. */
export function costlyImageIssues(request: VerifyRequest): ValidationIssue[] {
  const document = request.document as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const member of DOCUMENT_IMAGE_MEMBERS) {
    const value = document[member];
    if (typeof value !== 'string' || value.length === 0 || member.toLowerCase().endsWith('url'))
      continue;
    const bytes = Buffer.from(value, 'base64');
    if (sniffFormat(bytes) === undefined) continue;
    try {
      admitImage(bytes, DEFAULT_IMAGE_LIMITS);
    } catch (err) {
      if (!(err instanceof ImageRefused) || err.reason !== 'over_limit') continue;
      issues.push({ path: `/document/${member}`, message: err.message });
    }
  }
  return issues;
}
