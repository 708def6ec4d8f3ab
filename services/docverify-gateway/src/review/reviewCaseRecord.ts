// A review case row as the rest of the gateway sees it, and the mapping between the two.
import type { ReviewCaseState, ReviewCheck } from '@idv/contracts';
import type { CaseFacts, FirstDecision } from './reviewSteps.ts';

export interface ReviewCaseRecord extends CaseFacts {
  id: string;
  communityId: string;
  tenantId: string;
  configId: string;
  dvcID: string;
  /** the verification under review as its caller knows it */
  runId: string;
  sessionId: string | null;
  /** the run whose checks are reviewed (a resubmission's once it came back) */
  currentRunId: string;
  outcome: 'approved' | 'declined' | null;
  slaMinutes: number | null;
  resultStatus: 'verified' | 'not_verified';
  checks: ReviewCheck[];
  resubmissionSessionId: string | null;
  openedAt: Date;
  dueAt: Date | null;
  holdUntil: Date;
  decidedAt: Date | null;
  version: number;
}

export interface ReviewCaseRow {
  id: string;
  community_id: string;
  tenant_id: string;
  config_id: string;
  dvc_id: string;
  run_id: string;
  session_id: string | null;
  current_run_id: string;
  state: ReviewCaseState;
  outcome: 'approved' | 'declined' | null;
  four_eyes: boolean;
  sla_minutes: number | null;
  result_status: 'verified' | 'not_verified';
  checks: ReviewCheck[];
  assignee: string | null;
  assignee_sub: string | null;
  first_decision: FirstDecision | null;
  claimed_from: ReviewCaseState | null;
  resubmission_session_id: string | null;
  opened_at: Date;
  due_at: Date | null;
  hold_until: Date;
  decided_at: Date | null;
  version: number;
}

export const toCase = (row: ReviewCaseRow): ReviewCaseRecord => ({
  id: row.id,
  communityId: row.community_id,
  tenantId: row.tenant_id,
  configId: row.config_id,
  dvcID: row.dvc_id,
  runId: row.run_id,
  sessionId: row.session_id,
  currentRunId: row.current_run_id,
  state: row.state,
  outcome: row.outcome,
  fourEyes: row.four_eyes,
  slaMinutes: row.sla_minutes,
  resultStatus: row.result_status,
  checks: row.checks,
  assignee: row.assignee,
  assigneeSub: row.assignee_sub,
  firstDecision: row.first_decision,
  claimedFrom: row.claimed_from,
  resubmissionSessionId: row.resubmission_session_id,
  openedAt: row.opened_at,
  dueAt: row.due_at,
  holdUntil: row.hold_until,
  decidedAt: row.decided_at,
  version: row.version,
});
