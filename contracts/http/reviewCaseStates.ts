// The states of a review case, with no schema library behind them: the operator console's web
// app takes them from here (contracts/http/review.ts re-exports them).

/**
 * A case's life: open, in_review (claimed by one operator), awaiting_second (four-eyes: a first
 * approval or decline waits for a senior), resubmission_requested (the person captures again),
 * decided (approved or declined); expired (held past REVIEW_HOLD_HOURS) and erased end it too.
 */
export const REVIEW_CASE_STATES = [
  'open',
  'in_review',
  'awaiting_second',
  'resubmission_requested',
  'decided',
  'expired',
  'erased',
] as const;
export type ReviewCaseState = (typeof REVIEW_CASE_STATES)[number];
