// checkCapture(side, bytes, journey) -> problems[]: the one entry of the capture checks. Local
// checks first (a readable PNG/JPEG/WebP within the pixel and decoded-byte caps, read from its
// header by @idv/images; big enough, sharp, well lit: the decoding runs in a worker thread), then
// the content checks of contentChecks.ts. A refused image is a problem of the verdict
// (not_an_image, its message saying why), counted against the side's retakes like any other.
// A check that did not run (its threads busy for its session, community or gateway: see
// checkAdmission.ts; a measure or content check out of time) is never an accepted image: the
// verdict is check_unavailable, which captureActions neither keeps nor counts as a retake. So is a
// check whose thread crashed or whose task failed (any error but the image's refusal): logged at
// warn, never a 500.
import type { CaptureSide } from '@idv/contracts';
import { admitImage, ImageRefused } from '@idv/images';
import type { Logger } from '@idv/observability';
import type { CheckAdmission, CheckOwner } from './checkAdmission.ts';
import type { CaptureJourney, ContentChecks } from './contentChecks.ts';
import type { ImageHeader } from './imageHeader.ts';
import type { Measures } from './measures.ts';
import { CheckTimedOut, UndecodableImage, type QualityPool } from './qualityPool.ts';
import {
  CAPTURE_IMAGE_LIMITS,
  checkUnavailable,
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
  /** whose check it is: held to the bounds of `admission` */
  owner?: CheckOwner,
) => Promise<CaptureReport>;

export function captureChecker(
  pool: QualityPool,
  contentChecks: ContentChecks,
  admission?: CheckAdmission,
  logger?: Pick<Logger, 'warn'>,
): CheckCapture {
  return async (side, bytes, journey, owner) => {
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
    const entry = admission && owner ? admission.enter(owner) : { release: () => {} };
    if ('busy' in entry) return { problems: [checkUnavailable(entry.busy)], header };
    try {
      return await threadChecks(pool, contentChecks, { side, bytes, header, journey });
    } catch (err) {
      // a thread that died or a task that failed judged nothing: the image is asked for again
      logger?.warn({ side, reason: (err as Error)?.message ?? String(err) }, 'capture check failed'); // prettier-ignore
      return { problems: [checkUnavailable('the check failed')], header };
    } finally {
      entry.release();
    }
  };
}

/** The checks that run in the image threads: the measures, then the content checks. */
async function threadChecks(
  pool: QualityPool,
  contentChecks: ContentChecks,
  input: { side: CaptureSide; bytes: Buffer; header: ImageHeader; journey: CaptureJourney },
): Promise<CaptureReport> {
  const { header } = input;
  let measures: Measures;
  try {
    measures = await pool.measure(input.bytes, header.format);
  } catch (err) {
    if (err instanceof UndecodableImage) return { problems: [NOT_AN_IMAGE] };
    if (err instanceof CheckTimedOut) return { problems: [checkUnavailable(err.message)], header };
    throw err;
  }
  const local = measureProblems(measures);
  if (local.length > 0) return { problems: local, header, measures };
  const content = await contentChecks(input);
  return { problems: content.problems, header, measures, notes: content.notes };
}
