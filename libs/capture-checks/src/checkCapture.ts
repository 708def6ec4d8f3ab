// checkCapture(side, bytes, journey) -> problems[]: the one entry of the capture checks, in two
// parts. admitCapture runs wherever the upload arrives (the gateway), on the header alone: a
// readable PNG/JPEG/WebP within the pixel and decoded-byte caps (@idv/images), big enough for its
// side; a bomb or a tiny image is answered there, never sent on. captureChecker runs the rest in a
// capture-check worker's image threads: big enough, sharp, well lit (the measures), then the
// content checks of contentChecks.ts. A refused image is a problem of the verdict (not_an_image,
// its message saying why), counted against the side's retakes like any other.
// A check that did not run (the bounds of checkAdmission.ts; a measure or content check out of
// time; no worker answering in time) is never an accepted image: the verdict is check_unavailable,
// which the gateway neither keeps nor counts as a retake. So is a check whose thread crashed or
// whose task failed (any error but the image's refusal): logged at warn, never a 500.
import type { CaptureSide } from '@idv/contracts';
import { admitImage, decodeCost, ImageRefused } from '@idv/images';
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
  TOO_COSTLY,
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
  /** whose check it is: held to the bounds of an admission */
  owner?: CheckOwner,
  /** epoch ms until which a check over its tenant's share may wait for it (admissions that let
   *  checks wait); absent: over a share is check_unavailable at once */
  waitUntil?: number,
) => Promise<CaptureReport>;

/**
 * The header's verdict: a report when the image goes no further, else its header and what decoding
 * it costs (@idv/images decodeCost, what a community's image budget is charged).
 */
export function admitCapture(
  side: CaptureSide,
  bytes: Buffer,
): { report: CaptureReport } | { header: ImageHeader; cost: number } {
  let header: ImageHeader;
  let cost: number;
  try {
    const read = admitImage(bytes, CAPTURE_IMAGE_LIMITS);
    header = { format: read.format, width: read.width, height: read.height };
    cost = decodeCost(read);
  } catch (err) {
    if (!(err instanceof ImageRefused)) throw err;
    if (err.reason === 'unsupported_type' || err.reason === 'undecodable')
      return { report: { problems: [NOT_AN_IMAGE] } };
    return { report: { problems: [{ code: 'not_an_image', message: err.message }] } };
  }
  const tooSmall = sizeProblems(side, header);
  if (tooSmall.length > 0) return { report: { problems: tooSmall, header } };
  return { header, cost };
}

/**
 * Runs `check` for an admitted image within `admission`'s bounds: a report of check_unavailable
 * when over a bound or when the check failed (logged), never an exception.
 */
export async function boundedCheck(
  header: ImageHeader,
  owner: CheckOwner | undefined,
  admission: CheckAdmission | undefined,
  logger: Pick<Logger, 'warn'> | undefined,
  check: () => Promise<CaptureReport>,
  waitUntil?: number,
): Promise<CaptureReport> {
  // no wait given: over a share is busy at once (admit waits only until a time already past)
  const entry =
    admission && owner ? await admission.admit(owner, waitUntil ?? 0) : { release: () => {} };
  if ('busy' in entry) return { problems: [checkUnavailable(entry.busy)], header };
  try {
    return await check();
  } catch (err) {
    // a thread that died or a task that failed judged nothing: the image is asked for again
    logger?.warn({ reason: (err as Error)?.message ?? String(err) }, 'capture check failed');
    return { problems: [checkUnavailable('the check failed')], header };
  } finally {
    entry.release();
  }
}

/** What the image threads check: an admitted image, its side and its session's journey. */
export interface ThreadCheckInput {
  side: CaptureSide;
  bytes: Buffer;
  header: ImageHeader;
  journey: CaptureJourney;
}

/**
 * Where the costly images are checked: those whose decoding costs at least `minCost` bytes
 * (@idv/images decodeCost) go to `check`, the same checks elsewhere (a process at the lowest CPU
 * priority: services/capture-checker/src/heavyLane.ts), so they never slow an ordinary photo's.
 */
export interface HeavyLane {
  minCost: number;
  check(input: ThreadCheckInput): Promise<CaptureReport>;
}

/** The whole check in this process's image threads (a capture-check worker's, or a test's). */
export function captureChecker(
  pool: QualityPool,
  contentChecks: ContentChecks,
  admission?: CheckAdmission,
  logger?: Pick<Logger, 'warn'>,
  heavy?: HeavyLane,
): CheckCapture {
  return async (side, bytes, journey, owner, waitUntil) => {
    const admitted = admitCapture(side, bytes);
    if ('report' in admitted) return admitted.report;
    const input = { side, bytes, header: admitted.header, journey };
    const lane =
      heavy && admitted.cost >= heavy.minCost
        ? () => heavy.check(input)
        : () => threadChecks(pool, contentChecks, input);
    return boundedCheck(admitted.header, owner, admission, logger, lane, waitUntil);
  };
}

/** The checks that run in the image threads: the measures, then the content checks. */
export async function threadChecks(
  pool: QualityPool,
  contentChecks: ContentChecks,
  input: ThreadCheckInput,
): Promise<CaptureReport> {
  const { header } = input;
  let measures: Measures;
  try {
    measures = await pool.measure(input.bytes, header.format);
  } catch (err) {
    if (err instanceof UndecodableImage) return { problems: [NOT_AN_IMAGE] };
    if (err instanceof CheckTimedOut)
      return { problems: [err.imageAtFault ? TOO_COSTLY : checkUnavailable(err.message)], header };
    throw err;
  }
  const local = measureProblems(measures);
  if (local.length > 0) return { problems: local, header, measures };
  const content = await contentChecks(input);
  return { problems: content.problems, header, measures, notes: content.notes };
}
