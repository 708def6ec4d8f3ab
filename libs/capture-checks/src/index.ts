// Public surface of libs/capture-checks for the side that receives uploads (the gateway): the
// rules and verdicts of a captured image, its admission on the header alone, and the bounds of
// checks in flight. Nothing here decodes: the image threads, the OCR and the content checks are
// '@idv/capture-checks/engine', which only a capture-check worker (or a test) loads.
export { CheckAdmission, type CheckBounds, type CheckOwner } from './checkAdmission.ts';
export {
  admitCapture,
  boundedCheck,
  type CaptureReport,
  type CheckCapture,
} from './checkCapture.ts';
export type { CaptureJourney } from './contentChecks.ts';
export { readImageHeader, type ImageFormat, type ImageHeader } from './imageHeader.ts';
export type { Measures } from './measures.ts';
export {
  CAPTURE_IMAGE_LIMITS,
  checkUnavailable,
  MAX_PIXELS,
  MIN_SIZE,
  NOT_AN_IMAGE,
  uncheckedIn,
  type ProblemFound,
} from './qualityRules.ts';
