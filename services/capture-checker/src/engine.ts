// The engine one capture-check worker runs, the same in its image threads and in its heavy lane
// (heavyLane.ts): the image threads, the MRZ OCR, and the content checks over them.
import {
  imageContentChecks,
  MrzReader,
  QualityPool,
  type ContentChecks,
} from '@idv/capture-checks/engine';
import type { Logger } from '@idv/observability';
import type { CaptureCheckerSettings } from './config.ts';

/** The image threads, the MRZ OCR and the content checks over them, as one worker runs them. */
export function checkEngine(
  settings: CaptureCheckerSettings,
  threads: number,
  logger: Logger,
): { pool: QualityPool; mrz: MrzReader; contentChecks: ContentChecks; close(): Promise<void> } {
  const pool = new QualityPool(threads);
  const mrz = new MrzReader({ timeoutMs: settings.CAPTURE_MRZ_CHECK_MS });
  const contentChecks = imageContentChecks({
    pool,
    mrz,
    logger,
    timeoutMs: settings.CAPTURE_CONTENT_CHECK_MS,
  });
  return {
    pool,
    mrz,
    contentChecks,
    close: async () => void (await Promise.all([pool.close(), mrz.close()])),
  };
}
