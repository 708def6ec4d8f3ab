// The valid calls of the docverify gateway's review operations (DESIGN 2.5): the reads by a
// service licence (a community licence is below their level rule), the steps by the world's
// reviewing operator with their bearer token, each on a fresh case in the state it starts from.
import type { CallRule, ValidCall } from './conformanceCalls.ts';
import type { ConformanceWorld } from './conformanceWorld.ts';

const CASES = '/review/community/{communityId}/cases';
const communityId = (w: ConformanceWorld) => w.verify.platform.community.id;

/** A read of a fresh open case by a service licence. */
const read = (name?: string): CallRule => ({
  valid: async (w) => ({
    caller: 'service',
    params: {
      communityId: communityId(w),
      caseId: await w.reviewCase(),
      ...(name ? { name } : {}),
    },
  }),
  lowLevel: 'community',
});

/** A step of the reviewer on a fresh case, open or already claimed by them. */
const step =
  (claimed: boolean, body?: unknown) =>
  async (w: ConformanceWorld): Promise<ValidCall> => ({
    headers: w.operator,
    params: { communityId: communityId(w), caseId: await w.reviewCase(claimed) },
    ...(body === undefined ? {} : { body }),
  });

export const REVIEW: Record<string, CallRule> = {
  'GET /review/reasons': { valid: async () => ({ caller: 'service' }) },
  [`GET ${CASES}`]: {
    valid: async (w) => ({
      caller: 'service',
      params: { communityId: communityId(w) },
      query: 'state=open&limit=10',
    }),
    lowLevel: 'community',
  },
  [`GET ${CASES}/{caseId}`]: read(),
  [`GET ${CASES}/{caseId}/data`]: read(),
  // an async /verify's document image (image2 of the world's face_compare) is the case's front
  [`GET ${CASES}/{caseId}/images/{name}`]: read('front'),
  [`POST ${CASES}/{caseId}/claim`]: { valid: step(false) },
  [`POST ${CASES}/{caseId}/release`]: { valid: step(true) },
  [`POST ${CASES}/{caseId}/notes`]: {
    valid: step(false, { text: 'Testy McTestface looks like the photo' }),
  },
  [`POST ${CASES}/{caseId}/decision`]: {
    valid: step(true, { decision: 'approve', reasonCode: 'identity_confirmed' }),
  },
};
