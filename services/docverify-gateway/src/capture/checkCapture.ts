// checkCapture(side, bytes, journey) -> problems[]: the one entry of the capture checks. Local
// checks first (a readable PNG/JPEG/WebP within the pixel and decoded-byte caps, read from its
// header by @idv/images; big enough, sharp, well lit: the decoding runs in a worker thread), then
// the content checks of contentChecks.ts. Like those, a measure that overruns its worker's time
// limit keeps the image, noted `measureUnchecked`. A refused image is a problem of the verdict
// (not_an_image, its message saying why), counted against the side's retakes like any other.
import type { CaptureSide } from '@idv/contracts';
import { admitImage, ImageRefused } from '@idv/images';
import type { CaptureJourney, ContentChecks } from './contentChecks.ts';
import type { ImageHeader } from './imageHeader.ts';
import type { Measures } from './measures.ts';
import { CheckTimedOut, UndecodableImage, type QualityPool } from './qualityPool.ts';
import {
  CAPTURE_IMAGE_LIMITS,
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
    let header: ImageHeader;
    try {
      const { format, width, height } = admitImage(bytes, CAPTURE_IMAGE_LIMITS);
      header = { format, width, height };
    } catch (err) {
      if (!(err instanceof ImageRefused)) throw err;
      if (err.reason === 'unsupported_type' || err.reason === 'undecodable')
        return { problems: [NOT_AN_IMAGE] };
      return { problems: [{ code: 'not_an_image', message: err.message }] };
    }
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
