// The request of a resubmission's run: what its case's verification asked for, with the images
// captured again in place of the old ones and the others as they were (caseImages.ts). An original
// session's request is built as for any session; an async request keeps its data members.
import type { VerifyRequest } from '@idv/contracts';
import { kindsOf, sessionRequest, sidesOf } from '../sessions/sessionJourney.ts';
import { withCaptures } from './resubmissionCaptures.ts';
import type { SessionRecord } from '../sessions/sessionRecord.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import { RESUBMISSION_NOT_AWAITED } from '../runs/recordRun.ts';
import { caseImages, type CaseImageDeps } from './caseImages.ts';

type Prepared = { request: VerifyRequest } | { failure: string };

export async function resubmissionRequest(
  deps: CaseImageDeps & { sessions: SessionStore },
  session: SessionRecord,
  config: VerificationConfigRecord,
): Promise<Prepared> {
  const kase = session.reviewCaseId ? await deps.reviews.get(session.reviewCaseId) : undefined;
  if (kase?.state !== 'resubmission_requested') return { failure: RESUBMISSION_NOT_AWAITED };
  const { images, request } = await caseImages(deps, kase);
  if (!kase.sessionId)
    return request ? { request: withCaptures(request, images) } : { failure: 'request_gone' };
  const original = await deps.sessions.byId(kase.sessionId, 'all');
  if (!original?.documentType) return { failure: 'session_gone' };
  const { documentType, journeyType } = original;
  if (sidesOf(documentType, journeyType).some((side) => !images[side]))
    return { failure: 'capture_incomplete' };
  return {
    request: sessionRequest({
      sessionId: session.id,
      dvcID: session.dvcID,
      documentType,
      kinds: kindsOf(config.arrays, documentType, journeyType),
      images,
    }),
  };
}
