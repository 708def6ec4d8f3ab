// When a run's result waits for a human review: its config's `review` (kept in settings.review; a
// config without one reviews nothing) and the result's status.
import type { ReviewSettings, VerificationSettings, VerifyResult } from '@idv/contracts';

export const NO_REVIEW: ReviewSettings = { mode: 'off' };

export const reviewOf = (settings: VerificationSettings): ReviewSettings =>
  settings.review ?? NO_REVIEW;

/**
 * always: every final result; on_inconclusive: a result that is not 'verified', i.e. one of its
 * certifications is not verified (not_verified, rejected, inconclusive: overallStatus). A pending
 * result is not final yet: its follow-up's end is judged again.
 */
export function reviewApplies(review: ReviewSettings, result: VerifyResult): boolean {
  if (result.status === 'pending') return false;
  if (review.mode === 'always') return true;
  return review.mode === 'on_inconclusive' && result.status !== 'verified';
}

/** The hold of a case: how long its run waits for a decision before it fails (REVIEW_HOLD_HOURS). */
export const DEFAULT_REVIEW_HOLD_MS = 720 * 3_600_000;
