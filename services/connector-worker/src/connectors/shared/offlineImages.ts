// The images of the connectors that work offline in the worker (basic_ocr, basic_face): base64 in
// the request (a data URL's too) turned into bytes, refused before they are made when over the
// limit, and what a failed image job of @idv/images' pool means for the job.
import { DEFAULT_IMAGE_LIMITS, ImageJobTimedOut, ImageRefused } from '@idv/images';
import { Busy, Refused } from '../../outcomes.ts';

/** The bytes of `value`, the base64 of `field`; over `maxBytes` is refused. */
export function base64Image(
  value: string,
  field: string,
  maxBytes = DEFAULT_IMAGE_LIMITS.maxBytes,
): Buffer {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  const base64 = comma >= 0 ? value.slice(comma + 1) : value;
  // refused before the bytes are made: base64 takes 4 characters for 3 bytes
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 2)
    throw new Refused('invalid_input', `${field} is refused: over the limit of ${maxBytes} bytes`);
  return Buffer.from(base64, 'base64');
}

/**
 * What a failed image job means: a refused image is invalid input; a job out of time is invalid
 * input only when it ran most of its limit on the image (ImageJobTimedOut.imageAtFault), else
 * Busy (the platform's load, not the image). Anything else (the job's own abort) as it is.
 */
export function outcomeOfImageJob(err: unknown, field: string): unknown {
  if (err instanceof ImageRefused) {
    const why =
      err.reason === 'over_limit' || err.reason === 'too_large'
        ? 'is refused'
        : 'is not a decodable image';
    return new Refused('invalid_input', `${field} ${why}: ${err.message}`);
  }
  if (!(err instanceof ImageJobTimedOut)) return err;
  if (!err.imageAtFault)
    return new Busy('verifier_saturated', `${field} waited ${err.queuedMs} ms for an image thread`);
  return new Refused('invalid_input', `${field} took over ${err.timeoutMs} ms to read`);
}
