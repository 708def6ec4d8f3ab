// The local capture checks as rules over an image's header and measures: big enough for its side,
// sharp, neither too dark nor too bright. Each problem carries the advice the page can show.
import type { CaptureProblem, CaptureSide } from '@idv/contracts';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '@idv/images';
import type { ImageHeader } from './imageHeader.ts';
import type { Measures } from './measures.ts';

export interface ProblemFound {
  code: CaptureProblem;
  message: string;
}

/** Smallest accepted image per side: [long side, short side] in pixels. */
export const MIN_SIZE: Record<CaptureSide, [number, number]> = {
  front: [640, 400],
  back: [640, 400],
  passport: [640, 400],
  selfie: [320, 240],
};

/** Larger images are not decoded at all: a small file may hide a huge canvas. */
export const MAX_PIXELS = 50_000_000;

/** What a capture may cost decoded: MAX_PIXELS, and 200 MB of samples (a 16-bit PNG counts its
 *  bytes: 16-bit RGBA passes up to 25 megapixels). The route refuses larger uploads first (413). */
export const CAPTURE_IMAGE_LIMITS: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, maxPixels: MAX_PIXELS };

/** Below this Laplacian variance (on the working copy) an image is too blurred to read. */
export const MIN_SHARPNESS = 40;
export const MIN_LUMINANCE = 45;
export const MAX_LUMINANCE = 220;

export function sizeProblems(side: CaptureSide, header: ImageHeader): ProblemFound[] {
  const [long, short] = MIN_SIZE[side];
  const { width, height } = header;
  if (Math.max(width, height) >= long && Math.min(width, height) >= short) return [];
  return [
    {
      code: 'too_small',
      message: `the image is ${width}x${height} pixels; a ${side === 'selfie' ? 'selfie' : 'document'} needs at least ${long}x${short}: come closer or use a better camera`,
    },
  ];
}

export function measureProblems(measures: Measures): ProblemFound[] {
  const problems: ProblemFound[] = [];
  if (measures.luminance < MIN_LUMINANCE)
    problems.push({ code: 'too_dark', message: 'the image is too dark: find more light' });
  else if (measures.luminance > MAX_LUMINANCE)
    problems.push({
      code: 'too_bright',
      message: 'the image is too bright: avoid glare and direct light',
    });
  if (measures.sharpness < MIN_SHARPNESS)
    problems.push({
      code: 'blurred',
      message: 'the image is blurred: hold still and let the camera focus',
    });
  return problems;
}

export const NOT_AN_IMAGE: ProblemFound = {
  code: 'not_an_image',
  message: 'the file is not a JPEG, PNG or WebP image that can be read',
};

/**
 * The image itself took the check's whole time, running (not waiting for a thread): a photo that
 * costs this much is refused like an unreadable one, and the retake counts, so that sending it
 * again and again is not free work for the platform.
 */
export const TOO_COSTLY: ProblemFound = {
  code: 'not_an_image',
  message:
    'the image took too long to check: send an ordinary photo from the camera, not an edited or very large file',
};

/** The check did not run (`why`): never an accepted image, never a spent retake. */
export function checkUnavailable(why: string): ProblemFound {
  return {
    code: 'check_unavailable',
    message: `the image could not be checked (${why}): send it again in a moment`,
  };
}

export const uncheckedIn = (problems: ProblemFound[]): boolean =>
  problems.some((p) => p.code === 'check_unavailable');
