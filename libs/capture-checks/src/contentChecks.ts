// The content checks of a captured image, beyond the local ones: barcode_unreadable (the back of a
// DL or ID card: its PDF417 must decode), mrz_unreadable (the passport page: its MRZ must read with
// valid check digits) and the faces (faceRules.ts: the selfie's one face, whole and close enough,
// and the portrait on the document front or passport page in the face journey). checkCapture runs
// them only on images that passed the local checks.
// A check that cannot run (over its time waiting for a thread, or its thread failed) never accepts
// the image: the report's problem is check_unavailable (the person sends it again; no retake is
// spent for it), with a warning logged. One that ran its whole time on the image is the image's
// cost: refused, the retake spent (qualityRules.ts TOO_COSTLY).
import type { CaptureCheckRequest, CaptureSide } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import type { ImageHeader } from './imageHeader.ts';
import type { MrzReader } from './mrzReader.ts';
import { faceNotes, faceProblem } from './faceRules.ts';
import { CheckTimedOut, type QualityPool } from './qualityPool.ts';
import { checkUnavailable, TOO_COSTLY, type ProblemFound } from './qualityRules.ts';

/** What of the session's journey its checks depend on (a capture-check request carries it). */
export type CaptureJourney = CaptureCheckRequest['journey'];

export interface ContentCheckInput {
  side: CaptureSide;
  bytes: Buffer;
  header: ImageHeader;
  journey: CaptureJourney;
}

export interface ContentReport {
  problems: ProblemFound[];
  /** figures kept with the image's quality record (faceCount, barcodeRead, mrzRead...) */
  notes: Record<string, number>;
}

export type ContentChecks = (input: ContentCheckInput) => Promise<ContentReport>;

/** None: the local checks alone decide. */
export const noContentChecks: ContentChecks = async () => ({ problems: [], notes: {} });

export interface ContentCheckDeps {
  pool: QualityPool;
  mrz: MrzReader;
  logger: Logger;
  /** the time limit of a barcode or face check in a worker thread */
  timeoutMs: number;
}

type Check = 'barcode' | 'mrz' | 'face';

/** Which checks a side needs in its journey. */
export function checksFor(side: CaptureSide, journey: CaptureJourney): Check[] {
  if (side === 'back' && journey.documentType !== 'PASSPORT') return ['barcode'];
  const portrait = journey.journeyType === 'KYC_WITH_FACE_COMPARISON';
  if (side === 'passport') return portrait ? ['mrz', 'face'] : ['mrz'];
  if (side === 'selfie') return ['face'];
  if (side === 'front' && portrait) return ['face'];
  return [];
}

export function imageContentChecks(deps: ContentCheckDeps): ContentChecks {
  return async (input) => {
    const report: ContentReport = { problems: [], notes: {} };
    for (const check of checksFor(input.side, input.journey)) {
      try {
        const problem = await RUN[check](deps, input, report.notes);
        if (problem) report.problems.push(problem);
      } catch (err) {
        // a barcode or face search that ran its whole time on this image: the image is what costs
        if (err instanceof CheckTimedOut && err.imageAtFault) {
          report.notes[`${check}TooCostly`] = 1;
          return { problems: [TOO_COSTLY], notes: report.notes };
        }
        const reason = (err as Error).message;
        report.notes[`${check}Unchecked`] = 1;
        deps.logger.warn(
          { side: input.side, check, reason },
          'capture content check did not run; the person is asked to send the image again',
        );
        return { problems: [checkUnavailable(reason)], notes: report.notes };
      }
    }
    return report;
  };
}

type Runner = (
  deps: ContentCheckDeps,
  input: ContentCheckInput,
  notes: Record<string, number>,
) => Promise<ProblemFound | undefined>;

const RUN: Record<Check, Runner> = {
  async barcode({ pool, timeoutMs }, { bytes, header }, notes) {
    const { found } = await pool.run({ task: 'pdf417' }, bytes, header.format, timeoutMs);
    notes.barcodeRead = found ? 1 : 0;
    if (found) return undefined;
    return {
      code: 'barcode_unreadable',
      message:
        'the barcode on the back cannot be read: photograph the whole back, flat and close, without glare on the barcode',
    };
  },

  async mrz({ pool, mrz, timeoutMs }, { bytes, header }, notes) {
    const { band, page } = await pool.run({ task: 'mrzPage' }, bytes, header.format, timeoutMs);
    // the band alone reads in a fraction of the half page's time; the half page when it does not
    const images = band ? [Buffer.from(band), Buffer.from(page)] : [Buffer.from(page)];
    const outcome = await mrz.check(images);
    if (outcome.status === 'unchecked') throw new Error(outcome.reason);
    notes.mrzRead = outcome.status === 'valid' ? 1 : 0;
    notes.mrzBand = outcome.status === 'valid' && band && outcome.image === 0 ? 1 : 0;
    if (outcome.status === 'valid') return undefined;
    return {
      code: 'mrz_unreadable',
      message: `the machine readable zone (the lines of <<< at the bottom of the page) cannot be read (${outcome.reason}): photograph the whole page, flat and sharp`,
    };
  },

  async face({ pool, timeoutMs }, { side, bytes, header }, notes) {
    // a document needs one portrait; in a selfie every face counts (faceRules.ts)
    const job = { task: 'face' as const, anyFace: side !== 'selfie' };
    const found = await pool.run(job, bytes, header.format, timeoutMs);
    Object.assign(notes, faceNotes(found.faces, found.ms));
    return faceProblem(side, found.faces, found);
  },
};
