// The review cases the OpenAPI conformance test calls with: a config asking a human review of every
// run (`review-always`, made on first use) and the cases it opens, each from a fresh async /verify
// of the world's face_compare (a step moves its case on, so no two calls share one), open or
// claimed by the world's reviewer.
import type { VerifyRequest } from '@idv/contracts';
import { eventually } from './sessionWorld.ts';
import type { VerifyWorld } from './verifyWorld.ts';

export interface ReviewFixtures {
  /** a fresh case waiting for a reviewer; claimed: in review by the reviewer */
  reviewCase(claimed?: boolean): Promise<string>;
}

export function reviewFixtures(
  verify: VerifyWorld,
  reviewer: Record<string, string>,
): ReviewFixtures {
  const { community } = verify.platform;
  const caller = verify.client('docverify', 'service');
  const cases = `${verify.platform.services.docverify.url}/review/community/${community.id}/cases`;
  let config: Promise<void> | undefined;

  const opened = async (): Promise<string> => {
    config ??= caller
      .request('PUT', `/verificationConfig/community/${community.id}`, {
        tenantId: community.tenantId,
        tag: 'review-always',
        face_compare: [{ verifier: 'provider' }],
        review: { mode: 'always' },
      })
      .then((res) => {
        if (res.status !== 200) throw new Error(`config review-always: ${res.status}`);
      });
    await config;
    const request = { ...verify.verifyBody(), dvcID: 'review-always' } as VerifyRequest;
    const { verificationId } = await caller.verifyAsync(request);
    return eventually('the review case', async () => {
      const list = await caller.review.cases(community.id, { state: 'open', limit: 100 });
      return list.items.find((item) => item.verificationId === verificationId)?.caseId;
    });
  };

  return {
    async reviewCase(claimed = false) {
      const caseId = await opened();
      if (!claimed) return caseId;
      const claim = await fetch(`${cases}/${caseId}/claim`, { method: 'POST', headers: reviewer });
      if (claim.status !== 200) throw new Error(`claim: ${claim.status} ${await claim.text()}`);
      return caseId;
    },
  };
}
