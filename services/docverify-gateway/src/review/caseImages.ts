// The images a case's reviewed run saw, by side: the original's (a session's accepted images, or
// those an async request carried) with each resubmission's new captures over them, oldest first.
// A resubmission's run is verified with exactly these; reviewers see the same.
import type { CaptureSide, VerifyRequest } from '@idv/contracts';
import { requestImages } from './resubmissionCaptures.ts';
import type { ReviewCaseRecord, ReviewCaseStore } from './reviewCaseStore.ts';
import type { RunStore } from '../runs/runStore.ts';
import type { SessionImageStore } from '../sessions/sessionImageStore.ts';

export interface CaseImageDeps {
  runs: RunStore;
  images: SessionImageStore;
  reviews: ReviewCaseStore;
}

export type SideImages = Partial<Record<CaptureSide, Buffer>>;

/** Resubmissions whose captures count: submitted ones, not those cancelled or failed. */
const SUBMITTED = ['submitted', 'processing'];

/** The case's images (only `side`, when given: a reviewer's read of one image opens no other). */
export async function caseImages(
  deps: CaseImageDeps,
  kase: ReviewCaseRecord,
  side?: CaptureSide,
): Promise<{ images: SideImages; request?: VerifyRequest }> {
  const request = kase.sessionId
    ? undefined
    : ((await deps.runs.request(kase.runId)) as VerifyRequest | undefined);
  let images: SideImages = kase.sessionId
    ? await deps.images.opened(kase.sessionId, side)
    : request
      ? requestImages(request)
      : {};
  for (const id of await deps.reviews.resubmissionSessions(kase, SUBMITTED))
    images = { ...images, ...(await deps.images.opened(id, side)) };
  if (side) images = images[side] ? { [side]: images[side] } : {};
  return request ? { images, request } : { images };
}
