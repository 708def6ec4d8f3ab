// What operators and tenants' tools read of a case without the person's data: the queue's line of
// it, and the whole case with its checks, history, notes, decisions and resubmission. Note texts
// (they may name the person) and the resubmission's link (its page token is a credential) only for
// a reader given `texts`: viewers and auditors read that notes and a link exist, not what they say.
import type { ReviewCase, ReviewCaseSummary, ReviewDecision } from '@idv/contracts';
import { isLive } from './reviewSteps.ts';
import type { ReviewCaseRecord, ReviewCaseStore } from './reviewCaseStore.ts';
import type { ReviewSealedStore } from './reviewSealedStore.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function caseSummary(kase: ReviewCaseRecord): ReviewCaseSummary {
  return {
    caseId: kase.id,
    state: kase.state,
    verificationId: kase.runId,
    sessionId: kase.sessionId,
    openedAt: kase.openedAt.toISOString(),
    dueAt: iso(kase.dueAt),
    assignee: kase.assignee,
  };
}

/** The history's decisions, with the stage each was given at. */
const STAGE_OF: Record<string, 'single' | 'first' | 'second'> = {
  decided: 'single',
  first_decision: 'first',
  confirmed: 'second',
  overridden: 'second',
};

type HistoryRow = Awaited<ReturnType<ReviewCaseStore['history']>>[number];

function decisionsOf(history: HistoryRow[]): ReviewCase['decisions'] {
  return history.flatMap((h) => {
    const stage =
      h.action === 'resubmission_requested'
        ? h.from_state === 'awaiting_second'
          ? 'second'
          : 'single'
        : STAGE_OF[h.action];
    if (!stage || !h.decision) return [];
    const decision = h.decision as ReviewDecision;
    return [
      { stage, decision, reasonCode: h.reason_code ?? '', by: h.actor, at: h.at.toISOString() },
    ];
  });
}

/** The case's notes and resubmission, with their texts and link or without. */
async function sealedParts(
  deps: { reviewSealed: ReviewSealedStore },
  kase: ReviewCaseRecord,
  texts: boolean,
): Promise<Pick<ReviewCase, 'notes' | 'resubmission'>> {
  const notes = await deps.reviewSealed.notes(kase);
  const resubmission = (await deps.reviewSealed.resubmissionOf(kase)) ?? null;
  if (texts) return { notes, resubmission };
  return {
    notes: notes.map(({ noteId, at, author }) => ({ noteId, at, author })),
    resubmission: resubmission && {
      sessionId: resubmission.sessionId,
      expiresAt: resubmission.expiresAt,
    },
  };
}

export async function caseView(
  deps: { reviews: ReviewCaseStore; reviewSealed: ReviewSealedStore },
  kase: ReviewCaseRecord,
  now: Date,
  texts: boolean,
): Promise<ReviewCase> {
  const history = await deps.reviews.history(kase.id);
  return {
    caseId: kase.id,
    communityId: kase.communityId,
    state: kase.state,
    outcome: kase.outcome,
    fourEyes: kase.fourEyes,
    slaMinutes: kase.slaMinutes,
    openedAt: kase.openedAt.toISOString(),
    dueAt: iso(kase.dueAt),
    overdue: isLive(kase.state) && kase.dueAt !== null && kase.dueAt < now,
    holdUntil: kase.holdUntil.toISOString(),
    decidedAt: iso(kase.decidedAt),
    assignee: kase.assignee,
    kind: kase.sessionId ? 'session' : 'async_verify',
    dvcID: kase.dvcID,
    verificationId: kase.runId,
    sessionId: kase.sessionId,
    reviewedVerificationId: kase.currentRunId,
    resultStatus: kase.resultStatus,
    checks: kase.checks,
    history: history.map((h) => ({
      at: h.at.toISOString(),
      actor: h.actor,
      action: h.action,
      fromState: h.from_state,
      state: h.to_state,
      ...(h.decision ? { decision: h.decision as ReviewDecision } : {}),
      ...(h.reason_code ? { reasonCode: h.reason_code } : {}),
    })),
    decisions: decisionsOf(history),
    ...(await sealedParts(deps, kase, texts)),
  };
}
