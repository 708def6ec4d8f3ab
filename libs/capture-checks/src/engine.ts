// The capture checks' engine, for a capture-check worker: the image threads (qualityPool.ts, running
// imageTasks.ts on pixels decoded by @idv/images), the MRZ OCR and the content checks, and the
// whole check over them (captureChecker).
export {
  captureChecker,
  threadChecks,
  type HeavyLane,
  type ThreadCheckInput,
} from './checkCapture.ts';
export {
  checksFor,
  imageContentChecks,
  noContentChecks,
  type ContentCheckDeps,
  type ContentChecks,
} from './contentChecks.ts';
export { faceProblem, MIN_SELFIE_FACE } from './faceRules.ts';
export { MRZ_PAGE_SIZE } from './imageTasks.ts';
export { MrzReader, type MrzOutcome } from './mrzReader.ts';
export { CheckTimedOut, QualityPool, UndecodableImage } from './qualityPool.ts';
