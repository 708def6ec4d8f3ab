// A resubmission's captures: which sides a reason's captures name for a document, which journey an
// async /verify's request stands for, the images a request carries by side, and the request again
// with some sides captured anew (the others as they were).
import {
  sessionDocumentTypeOf,
  type CaptureSide,
  type ResubmissionCapture,
  type SessionDocumentType,
  type VerifyRequest,
} from '@idv/contracts';
import { sidesOf, type JourneyType } from '../sessions/sessionJourney.ts';

export interface Journey {
  documentType: SessionDocumentType;
  journeyType: JourneyType;
}

/** The sides the captures name for this journey (the front of a passport is its page). */
export function sidesAsked(
  captures: readonly ResubmissionCapture[],
  journey: Journey,
): CaptureSide[] {
  const named = new Set<CaptureSide>(
    captures.map((c) =>
      c === 'selfie'
        ? 'selfie'
        : c === 'document_back'
          ? 'back'
          : journey.documentType === 'PASSPORT'
            ? 'passport'
            : 'front',
    ),
  );
  return sidesOf(journey.documentType, journey.journeyType).filter((side) => named.has(side));
}

/** The journey an async request stands for; undefined when it has no document to capture. */
export function journeyOfRequest(request: VerifyRequest): Journey | undefined {
  const documentType = sessionDocumentTypeOf(request.document.type);
  if (!documentType) return undefined;
  const faces = request.verifications.some((k) => k === 'face_compare' || k === 'face_liveness');
  return {
    documentType,
    journeyType: faces ? 'KYC_WITH_FACE_COMPARISON' : 'DOCUMENT_VERIFICATION_ONLY',
  };
}

/** The request members holding each side's image: base64 members, with their URL twins. */
const MEMBERS: Record<'document' | 'back' | 'selfie', [string, string][]> = {
  document: [
    ['front_image', 'front_image_url'],
    ['image', 'imageUrl'],
    ['image2', 'image2Url'],
    ['image1', 'image1Url'],
  ],
  back: [
    ['back_image', 'back_image_url'],
    ['barcode_image', 'barcode_image_url'],
  ],
  selfie: [['liveId', 'liveIdUrl']],
};
const groupOf = (side: CaptureSide) =>
  side === 'selfie' ? 'selfie' : side === 'back' ? 'back' : 'document';
const documentSide = (request: VerifyRequest): CaptureSide =>
  sessionDocumentTypeOf(request.document.type) === 'PASSPORT' ? 'passport' : 'front';

/** The images a request holds (base64 members only: a presigned URL is not fetched here). */
export function requestImages(request: VerifyRequest): Partial<Record<CaptureSide, Buffer>> {
  const document = request.document as Record<string, unknown>;
  const sides: CaptureSide[] = [documentSide(request), 'back', 'selfie'];
  const found = sides.flatMap((side) => {
    const member = MEMBERS[groupOf(side)].find(([name]) => typeof document[name] === 'string');
    return member ? [[side, Buffer.from(document[member[0]] as string, 'base64')] as const] : [];
  });
  return Object.fromEntries(found);
}

/**
 * `request` with the sides in `captures` replacing the images it held for them: each member of
 * the side's group it had (as base64 or URL) now carries the new capture.
 */
export function withCaptures(
  request: VerifyRequest,
  captures: Partial<Record<CaptureSide, Buffer>>,
): VerifyRequest {
  const document: Record<string, unknown> = { ...request.document };
  for (const [side, bytes] of Object.entries(captures) as [CaptureSide, Buffer][]) {
    for (const [member, url] of MEMBERS[groupOf(side)]) {
      if (document[member] === undefined && document[url] === undefined) continue;
      delete document[url];
      document[member] = bytes.toString('base64');
    }
  }
  return { ...request, document: document as VerifyRequest['document'] };
}
