// The capture settings of a session, taken from its verification config when the session is
// created: retries per side, the selfie capture mode, review screens, data retention.
import type { CaptureSide, SessionDocumentType, VerificationSettings } from '@idv/contracts';
import { WELL_KNOWN } from '../wellKnown/wellKnown.ts';

export interface CaptureSettings {
  selfieCaptureMode: 'auto' | 'manualWithFaceDetection';
  reviewScreenFront: boolean;
  reviewScreenBack: boolean;
  retryCount: number;
  selfieRetryCount: number;
  /** the document types the config can verify (the person chooses among them) */
  documentTypes: SessionDocumentType[];
  dataRetention?: VerificationSettings['dataRetention'];
  /** a resubmission's: the only sides the person captures again */
  sides?: CaptureSide[];
}

/** What a document verifier's scan channel says of review screens (spec 2.3). */
export interface ReviewScreens {
  reviewScreenFront?: boolean | undefined;
  reviewScreenBack?: boolean | undefined;
}

export function captureSettings(
  settings: VerificationSettings,
  documentTypes: SessionDocumentType[],
  channels: ReviewScreens[],
): CaptureSettings {
  // the first document verifier that says so decides; a review screen by default
  const front = channels.find((c) => c.reviewScreenFront !== undefined)?.reviewScreenFront;
  const back = channels.find((c) => c.reviewScreenBack !== undefined)?.reviewScreenBack;
  return {
    selfieCaptureMode: settings.selfieCaptureMode ?? 'auto',
    reviewScreenFront: front ?? true,
    reviewScreenBack: back ?? true,
    retryCount: settings.retryCount ?? WELL_KNOWN.retryCount.defaultValue,
    selfieRetryCount: settings.selfieRetryCount ?? WELL_KNOWN.selfieRetryCount.defaultValue,
    documentTypes,
    ...(settings.dataRetention ? { dataRetention: settings.dataRetention } : {}),
  };
}

/** Captures allowed for a side: the first one and its retakes. */
export function attemptsAllowed(side: CaptureSide, settings: CaptureSettings): number {
  return 1 + (side === 'selfie' ? settings.selfieRetryCount : settings.retryCount);
}
