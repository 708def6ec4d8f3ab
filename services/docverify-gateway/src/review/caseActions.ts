// An operator's claim, release and note on a case: each a step with its history line and its audit
// row in one transaction (landStep.ts), a claim racing another's landing once (409 for the other).
// A case whose resubmission was submitted is not claimed while that run is verified (409): its end
// brings the case back open with the new captures, which a decision taken now would not have seen.
import { randomUUID } from 'node:crypto';
import type { ReviewStepAnswer } from '@idv/contracts';
import { ConflictError, NotFoundError } from '@idv/errors';
import { appendAudit } from '@idv/platform';
import { claimStep, isLive, releaseStep, type Reviewer } from './reviewSteps.ts';
import { addHistory, type ReviewCaseRecord } from './reviewCaseStore.ts';
import { operatorActor, type ReviewDeps } from './deps.ts';
import { landStep, stepAnswer } from './landStep.ts';

async function caseOf(deps: ReviewDeps, communityId: string, caseId: string) {
  const kase = await deps.reviews.get(caseId, communityId);
  if (!kase) throw new NotFoundError(`case ${caseId} not found`);
  return kase;
}

const audited = (
  kase: ReviewCaseRecord,
  actor: string,
  action: string,
  at: Date,
  details: Record<string, unknown> = {},
) => ({
  at,
  actor,
  action,
  communityId: kase.communityId,
  subject: { kind: 'review_case', id: kase.id },
  details: { state: kase.state, ...details },
});

/** The steps an operator takes on a case by name, with their audit action. */
const MOVES = {
  claim: { step: claimStep, audit: 'case.claimed' },
  release: { step: releaseStep, audit: 'case.released' },
} as const;
export type CaseMove = keyof typeof MOVES;

/** A claim or a release of a case by `operator`, audited with it. */
export async function moveCase(
  deps: ReviewDeps,
  communityId: string,
  caseId: string,
  operator: Reviewer,
  move: CaseMove,
): Promise<ReviewStepAnswer> {
  const kase = await caseOf(deps, communityId, caseId);
  const step = MOVES[move].step(kase, operator);
  const now = deps.clock.now();
  const actor = operatorActor(operator);
  return landStep(deps, async (trx) => {
    const after = await deps.reviews.apply(trx, kase, step, { at: now, actor });
    if (!after) return undefined;
    // after the step locked the case: a submit that landed first is seen here (resubmissionSubmit.ts)
    if (
      kase.state === 'resubmission_requested' &&
      (await deps.reviews.resubmissionVerifying(trx, kase))
    )
      throw new ConflictError(
        "the person's new captures are being verified: the case comes back open with them in a moment",
      );
    await appendAudit(trx, audited(after, actor, MOVES[move].audit, now));
    return stepAnswer(after);
  });
}

/** A note on a live case, sealed under its verification's data key. */
export async function addCaseNote(
  deps: ReviewDeps,
  communityId: string,
  caseId: string,
  operator: Reviewer,
  text: string,
): Promise<ReviewStepAnswer> {
  const kase = await caseOf(deps, communityId, caseId);
  if (!isLive(kase.state)) throw new ConflictError(`the case is ${kase.state}: no more notes`);
  const now = deps.clock.now();
  const actor = operatorActor(operator);
  const noteId = randomUUID();
  return landStep(deps, async (trx) => {
    if (!(await deps.reviews.lockLive(trx, kase.id))) return undefined;
    await deps.reviewSealed.addNote(trx, kase, { id: noteId, at: now, author: actor, text });
    await addHistory(trx, kase.id, {
      at: now,
      actor,
      action: 'note_added',
      from: kase.state,
      to: kase.state,
    });
    await appendAudit(trx, audited(kase, actor, 'case.note.added', now, { noteId }));
    return { ...stepAnswer(kase), noteId };
  });
}
