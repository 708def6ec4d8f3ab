// SEAM for the content checks of a captured image, beyond the local ones: barcode_unreadable (the
// back of a DL or ID card: its PDF417 must decode), mrz_unreadable (the passport page: its MRZ
// must read with valid check digits) and no_face (the selfie, and the portrait on the document
// front in the face journey). A later helper implements them here; they may need a connector
// worker round trip (e.g. basic_ocr over RabbitMQ), hence async and given the image bytes.
// checkCapture runs them only on images that passed the local checks.
import type { CaptureSide, SessionDocumentType } from '@idv/contracts';
import type { JourneyType } from '../domain/sessionJourney.ts';
import type { ImageHeader } from './imageHeader.ts';
import type { ProblemFound } from './qualityRules.ts';

export interface CaptureJourney {
  journeyType: JourneyType;
  documentType: SessionDocumentType | null;
}

export interface ContentCheckInput {
  side: CaptureSide;
  bytes: Buffer;
  header: ImageHeader;
  journey: CaptureJourney;
}

export type ContentChecks = (input: ContentCheckInput) => Promise<ProblemFound[]>;

/** Today: none; the local checks alone decide. */
export const noContentChecks: ContentChecks = async () => [];
