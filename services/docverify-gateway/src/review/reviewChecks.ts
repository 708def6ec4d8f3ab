// What a case shows of its run's checks: kind, verifier, provider, status and score of each
// certification, nothing the person is (no extracted data, no images).
import type { ReviewCheck, VerifyResult } from '@idv/contracts';

export function reviewChecks(result: VerifyResult): ReviewCheck[] {
  return result.certifications
    .filter((c) => c.kind !== 'human_review')
    .map((c) => {
      const score = c.result && 'score' in c.result ? c.result.score : undefined;
      return {
        kind: c.kind,
        verifier: c.verifier,
        provider: c.authority,
        status: c.status,
        verified: c.verified,
        ...(typeof score === 'number' ? { score } : {}),
      };
    });
}

/** A reviewed run's own status: what its checks said before anyone decided. */
export const resultStatusOf = (result: VerifyResult): 'verified' | 'not_verified' =>
  result.status === 'verified' ? 'verified' : 'not_verified';
