// POST .../cases/{caseId}/decision: an operator's approve, decline or resubmit with a reason code
// (and a note). In one transaction: the case's step (on the version it was judged against: a
// decision landing first makes this one a 409), its history line, the note (sealed), the audit row,
// and what the step carries along: a final decision completes the held runs, a resubmission opens
// its session; sessions of the case never submitted are cancelled. The events go out once committed.
import type { EventEnvelope, ReviewDecisionBody, ReviewStepAnswer } from '@idv/contracts';
import { ConflictError, NotFoundError } from '@idv/errors';
import { appendAudit } from '@idv/platform';
import { randomUUID } from 'node:crypto';
import { reasonFor } from './reviewReasons.ts';
import { decisionStep, type Reviewer } from './reviewSteps.ts';
import { completeCase } from './completeCase.ts';
import { operatorActor, type ReviewDeps } from './deps.ts';
import { reviewDecided } from './events.ts';
import { cancelResubmissions, planResubmission, requestResubmission } from './resubmission.ts';
import { landStep, stepAnswer } from './landStep.ts';

export async function decideCase(
  deps: ReviewDeps,
  communityId: string,
  caseId: string,
  operator: Reviewer,
  body: ReviewDecisionBody,
): Promise<ReviewStepAnswer> {
  const reason = reasonFor(body.reasonCode, body.decision, body.note);
  const kase = await deps.reviews.get(caseId, communityId);
  if (!kase) throw new NotFoundError(`case ${caseId} not found`);
  const now = deps.clock.now();
  const step = decisionStep(kase, operator, { ...body, at: now.toISOString() });
  const plan = step.resubmit ? await planResubmission(deps, kase, reason) : undefined;
  const [config] = await deps.configs.find([kase.communityId], kase.configId);
  if (plan && !config)
    throw new ConflictError('the verification config is gone: nothing can be captured again');
  const runConfig = config ?? {
    tenantId: kase.tenantId,
    communityId: kase.communityId,
    settings: {},
  };
  const actor = operatorActor(operator);
  return landStep(deps, async (trx, owed) => {
    const after = await deps.reviews.apply(trx, kase, step, {
      at: now,
      actor,
      decision: body.decision,
      reasonCode: reason.code,
    });
    if (!after) return undefined;
    if (body.note)
      await deps.reviewSealed.addNote(trx, kase, {
        id: randomUUID(),
        at: now,
        author: actor,
        text: body.note,
      });
    await appendAudit(trx, {
      at: now,
      actor,
      action: 'case.decided',
      communityId: kase.communityId,
      subject: { kind: 'review_case', id: kase.id },
      details: {
        decision: body.decision,
        reasonCode: reason.code,
        stage: step.stage,
        state: step.to,
      },
    });
    const events: EventEnvelope[] = [reviewDecided(kase, step, body)];
    if (step.outcome || step.resubmit) events.push(...(await cancelResubmissions(deps, trx, kase)));
    if (step.outcome) {
      const decision = step.outcome === 'approved' ? 'approve' : 'decline';
      const decided = {
        decision,
        reasonCode: reason.code,
        caseId: kase.id,
        decidedAt: now.toISOString(),
      } as const;
      events.push(...(await completeCase(deps, trx, after, runConfig, decided)));
    }
    if (!plan || !config) {
      owed.push(...events);
      return stepAnswer(after);
    }
    const asked = await requestResubmission(deps, trx, after, config, plan, reason);
    owed.push(...events, ...asked.events);
    return stepAnswer(after, asked.resubmission);
  });
}
