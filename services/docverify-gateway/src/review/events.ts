// The events of a review case: ids, states, decisions and reason codes, never the person's data,
// never an operator's name, never a resubmission's page link.
import { eventEnvelope, type EventEnvelope, type ResubmissionCapture } from '@idv/contracts';
import type { CaseStep } from './reviewSteps.ts';
import type { ReviewCaseRecord } from './reviewCaseRecord.ts';

const ids = (kase: ReviewCaseRecord) => ({
  caseId: kase.id,
  verificationId: kase.runId,
  sessionId: kase.sessionId,
});

export function reviewOpened(kase: ReviewCaseRecord, reopened: boolean): EventEnvelope {
  return eventEnvelope('E_IDV_REVIEW_OPENED', kase, {
    ...ids(kase),
    state: 'open',
    reviewedVerificationId: kase.currentRunId,
    reopened,
    resultStatus: kase.resultStatus,
    dueAt: kase.dueAt?.toISOString() ?? null,
  });
}

export function reviewDecided(
  before: ReviewCaseRecord,
  step: CaseStep,
  decision: { decision: string; reasonCode: string },
): EventEnvelope {
  return eventEnvelope('E_IDV_REVIEW_DECIDED', before, {
    ...ids(before),
    decision: decision.decision,
    reasonCode: decision.reasonCode,
    stage: step.stage ?? 'single',
    fromState: before.state,
    state: step.to,
  });
}

export function resubmissionRequested(
  kase: ReviewCaseRecord,
  resubmissionSessionId: string,
  reasonCode: string,
  captures: readonly ResubmissionCapture[],
): EventEnvelope {
  return eventEnvelope('E_IDV_RESUBMISSION_REQUESTED', kase, {
    ...ids(kase),
    resubmissionSessionId,
    reasonCode,
    captures: [...captures],
  });
}
