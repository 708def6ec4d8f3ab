// A review case's state machine as pure functions: what a claim, a release or a decision by an
// operator makes of a case as it stands, or why it may not (ConflictError: the case is not there;
// NotAllowedError: not this operator). The store applies a step only on the version it was judged
// against, so of two steps at once exactly one lands.
import type { ReviewCaseState, ReviewDecision } from '@idv/contracts';
import { ConflictError, NotAllowedError } from '@idv/errors';

export const LIVE_CASE_STATES: readonly ReviewCaseState[] = [
  'open',
  'in_review',
  'awaiting_second',
  'resubmission_requested',
];
export const isLive = (state: ReviewCaseState) => LIVE_CASE_STATES.includes(state);

/** Who may give the second review of a four-eyes case. */
const SENIOR_ROLES = ['senior_reviewer', 'admin'];

export interface Reviewer {
  sub: string;
  username: string;
  roles: readonly string[];
}

export interface FirstDecision {
  decision: 'approve' | 'decline';
  reasonCode: string;
  by: string;
  bySub: string;
  at: string;
}

export interface CaseFacts {
  state: ReviewCaseState;
  fourEyes: boolean;
  assignee: string | null;
  assigneeSub: string | null;
  firstDecision: FirstDecision | null;
  /** while claimed: the state the claim took the case from */
  claimedFrom: ReviewCaseState | null;
}

export type Stage = 'single' | 'first' | 'second';

export interface CaseStep {
  /** the history's word for it */
  action: string;
  to: ReviewCaseState;
  assignee: { username: string; sub: string } | null;
  firstDecision: FirstDecision | null;
  /** a claim's: the state it takes the case from (a release gives it back) */
  claimedFrom?: ReviewCaseState;
  /** a decision's */
  stage?: Stage;
  outcome?: 'approved' | 'declined';
  resubmit?: boolean;
}

const kept = (c: CaseFacts) =>
  c.assignee && c.assigneeSub ? { username: c.assignee, sub: c.assigneeSub } : null;
const ended = (c: CaseFacts) => new ConflictError(`the case is ${c.state}`);
const heldBy = (c: CaseFacts) => new ConflictError(`the case is claimed by ${c.assignee}`);

function refuseSecondReviewer(c: CaseFacts, r: Reviewer): void {
  if (!r.roles.some((role) => SENIOR_ROLES.includes(role)))
    throw new NotAllowedError(
      'the second review of a four-eyes case needs senior_reviewer or admin',
    );
  if (c.firstDecision?.bySub === r.sub)
    throw new NotAllowedError('the second review must be another operator than the first');
}

/**
 * A claim of an open case, or of one waiting for a resubmission (to decide without it: the person's
 * submit meanwhile ends the claim, resubmissionSubmittedStep), or a four-eyes case's second review.
 * While the person's new captures are being verified a case is not claimed (caseActions.ts: they
 * bring it back open in moments).
 */
export function claimStep(c: CaseFacts, r: Reviewer): CaseStep {
  const me = { username: r.username, sub: r.sub };
  const from = { claimedFrom: c.state };
  if (c.state === 'open' || c.state === 'resubmission_requested')
    return { action: 'claimed', to: 'in_review', assignee: me, firstDecision: null, ...from };
  if (c.state === 'awaiting_second') {
    if (c.assigneeSub) throw heldBy(c);
    refuseSecondReviewer(c, r);
    return {
      action: 'claimed',
      to: c.state,
      assignee: me,
      firstDecision: c.firstDecision,
      ...from,
    };
  }
  if (c.state === 'in_review') throw heldBy(c);
  throw ended(c);
}

/** In review, the state a release gives the case back to: where the claim took it from. */
const unclaimed = (c: CaseFacts): ReviewCaseState =>
  c.claimedFrom === 'resubmission_requested' ? c.claimedFrom : 'open';

/**
 * The operator who holds the claim, or an admin, gives it up: the case is back where the claim
 * took it from (one waiting for a resubmission waits for it again).
 */
export function releaseStep(c: CaseFacts, r: Reviewer): CaseStep {
  if ((c.state !== 'in_review' && c.state !== 'awaiting_second') || !c.assigneeSub)
    throw new ConflictError(`the case is ${c.state} and not claimed`);
  if (c.assigneeSub !== r.sub && !r.roles.includes('admin'))
    throw new NotAllowedError(
      `the case is claimed by ${c.assignee}: only they or an admin release it`,
    );
  const to = c.state === 'in_review' ? unclaimed(c) : c.state;
  return { action: 'released', to, assignee: null, firstDecision: c.firstDecision };
}

/**
 * The person submits a resubmission's captures: a case waiting for them takes them as it is
 * (undefined: no step); one claimed while it waited gives the claim up (the new captures win: the
 * reviewer's decision would be on the old ones, and the run brings the case back open); any other
 * state no longer awaits them.
 */
export function resubmissionSubmittedStep(c: CaseFacts): CaseStep | undefined {
  if (c.state === 'resubmission_requested') return undefined;
  if (c.state === 'in_review' && c.claimedFrom === 'resubmission_requested')
    return {
      action: 'claim_ended_by_resubmission',
      to: c.claimedFrom,
      assignee: null,
      firstDecision: null,
    };
  throw new ConflictError(`these captures are no longer awaited: the case is ${c.state}`);
}

/**
 * A decision: by the operator who claimed the case; with four-eyes, an approval or decline first
 * waits for a second review by a senior other than the first reviewer, who confirms or overrides
 * it. A resubmission is never final: the case waits for the new captures.
 */
export function decisionStep(
  c: CaseFacts,
  r: Reviewer,
  given: { decision: ReviewDecision; reasonCode: string; at: string },
): CaseStep {
  const { decision } = given;
  if (c.state === 'open' || c.state === 'resubmission_requested')
    throw new ConflictError('claim the case first');
  if (c.state !== 'in_review' && c.state !== 'awaiting_second') throw ended(c);
  const second = c.state === 'awaiting_second';
  if (second) refuseSecondReviewer(c, r);
  if ((c.assigneeSub || !second) && c.assigneeSub !== r.sub) throw heldBy(c);
  const stage: Stage = second
    ? 'second'
    : c.fourEyes && decision !== 'resubmit'
      ? 'first'
      : 'single';
  if (decision === 'resubmit')
    return {
      action: 'resubmission_requested',
      to: 'resubmission_requested',
      assignee: null,
      firstDecision: null,
      stage,
      resubmit: true,
    };
  if (stage === 'first') {
    const first = {
      decision,
      reasonCode: given.reasonCode,
      by: r.username,
      bySub: r.sub,
      at: given.at,
    };
    return {
      action: 'first_decision',
      to: 'awaiting_second',
      assignee: null,
      firstDecision: first,
      stage,
    };
  }
  const action = !second
    ? 'decided'
    : c.firstDecision?.decision === decision
      ? 'confirmed'
      : 'overridden';
  return {
    action,
    to: 'decided',
    assignee: kept(c),
    firstDecision: c.firstDecision,
    stage,
    outcome: decision === 'approve' ? 'approved' : 'declined',
  };
}
