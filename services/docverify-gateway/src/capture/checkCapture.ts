// checkCapture(side, bytes, journey) -> problems[]: the one entry of the capture checks. Local
// checks first (a readable PNG/JPEG/WebP within the pixel cap, big enough, sharp, well lit; the
// decoding runs in a worker thread), then the content checks of contentChecks.ts. Like those, a
// measure that overruns its worker's time limit keeps the image, noted `measureUnchecked`.
import type { CaptureSide } from '@idv/contracts';
import type { CaptureJourney, ContentChecks } from './contentChecks.ts';
import { readImageHeader, type ImageHeader } from './imageHeader.ts';
import type { Measures } from './measures.ts';
import { CheckTimedOut, UndecodableImage, type QualityPool } from './qualityPool.ts';
import {
  MAX_PIXELS,
  measureProblems,
  NOT_AN_IMAGE,
  sizeProblems,
  type ProblemFound,
} from './qualityRules.ts';

export interface CaptureReport {
  problems: ProblemFound[];
  /** present when the image could be read */
  header?: ImageHeader;
  measures?: Measures;
  /** figures of the content checks (contentChecks.ts), kept with the measures */
  notes?: Record<string, number>;
}

export type CheckCapture = (
  side: CaptureSide,
  bytes: Buffer,
  journey: CaptureJourney,
) => Promise<CaptureReport>;

export function captureChecker(pool: QualityPool, contentChecks: ContentChecks): CheckCapture {
  return async (side, bytes, journey) => {
    const header = readImageHeader(bytes);
    if (!header || header.width === 0 || header.height === 0) return { problems: [NOT_AN_IMAGE] };
    if (header.width * header.height > MAX_PIXELS)
      return {
        problems: [
          {
            code: 'not_an_image',
            message: `the image is ${header.width}x${header.height} pixels, over the limit of ${MAX_PIXELS / 1e6} megapixels`,
          },
        ],
      };
    const tooSmall = sizeProblems(side, header);
    if (tooSmall.length > 0) return { problems: tooSmall, header };
    let measures: Measures;
    try {
      measures = await pool.measure(bytes, header.format);
    } catch (err) {
      if (err instanceof UndecodableImage) return { problems: [NOT_AN_IMAGE] };
      // a photo that takes a worker past its time limit is kept unmeasured (noted), not lost
      if (err instanceof CheckTimedOut) return { problems: [], header, notes: { measureUnchecked: 1 } }; // prettier-ignore
      throw err;
    }
    const local = measureProblems(measures);
    if (local.length > 0) return { problems: local, header, measures };
    const content = await contentChecks({ side, bytes, header, journey });
    return { problems: content.problems, header, measures, notes: content.notes };
  };
}
