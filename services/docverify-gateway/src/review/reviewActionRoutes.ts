// What reviewing operators do to a case (DESIGN 2.5), with their bearer token only: claim it,
// release it, add a note, decide. Each answers the case's state after the step; a step another
// landed first answers 409, a role or person the step does not allow 403 (review/ use cases).
import {
  ReviewDecisionBody,
  ReviewNoteBody,
  ReviewStepAnswer,
  type ReviewDecisionBody as DecisionBody,
} from '@idv/contracts';
import { parseBody, type Route } from '@idv/http';
import type { Request, Response } from 'express';
import { addCaseNote, moveCase, type CaseMove } from './caseActions.ts';
import { decideCase } from './decide.ts';
import { communityOfPath } from '../shared/community.ts';
import { operatorOnly, REVIEWERS, theOperator } from '../shared/operatorAccess.ts';
import { CASES_PATH, type ReviewRouteDeps } from './reviewCaseRoutes.ts';

const MOVE_SUMMARIES: Record<CaseMove, string> = {
  claim:
    'claims an open case (or one waiting for a resubmission, or a four-eyes case for its second review) for the operator: in_review; a case claimed meanwhile answers 409',
  release: 'gives a claimed case back to the queue (its assignee, or an admin)',
};

export function reviewActionRoutes(deps: ReviewRouteDeps): Route[] {
  const community = communityOfPath(deps.tenants);
  const guards = [operatorOnly(deps, REVIEWERS)];
  const one = `${CASES_PATH}/:caseId`;
  /** The step's use case with the path's community and case and the operator who asks. */
  type StepRun = (
    c: string,
    caseId: string,
    req: Request,
    res: Response,
  ) => Promise<ReviewStepAnswer>;
  const step = (run: StepRun) => async (req: Request, res: Response) => {
    const { id } = await community(req);
    res.json(await run(id, String(req.params.caseId), req, res));
  };
  const conflicts = { errors: [409] };
  const moves: Route[] = Object.entries(MOVE_SUMMARIES).map(([move, summary]) => ({
    method: 'POST',
    path: `${one}/${move}`,
    guards,
    doc: { summary, response: ReviewStepAnswer, ...conflicts },
    handler: step((c, caseId, _req, res) =>
      moveCase(deps, c, caseId, theOperator(res), move as CaseMove),
    ),
  }));

  return [
    ...moves,
    {
      method: 'POST',
      path: `${one}/notes`,
      guards,
      doc: {
        summary:
          "adds a note to a live case (text ≤ 2000), sealed under the verification's data key (an erasure destroys it)",
        body: ReviewNoteBody,
        response: ReviewStepAnswer,
        ...conflicts,
      },
      handler: step((c, caseId, req, res) => {
        const { text } = parseBody(ReviewNoteBody, req.body);
        return addCaseNote(deps, c, caseId, theOperator(res), text);
      }),
    },
    {
      method: 'POST',
      path: `${one}/decision`,
      guards,
      doc: {
        summary:
          'decides a claimed case: approve or decline (four-eyes: first by its reviewer, then confirmed or overridden by another operator with senior_reviewer or admin), or resubmit (a new capture session asking only for what the reason names: {resubmission: {sessionId, url, expiresAt}}); reasonCode from GET /review/reasons. A final decision completes the verification with a signed human_review certification',
        body: ReviewDecisionBody,
        response: ReviewStepAnswer,
        ...conflicts,
      },
      handler: step((c, caseId, req, res) => {
        const body: DecisionBody = parseBody(ReviewDecisionBody, req.body);
        return decideCase(deps, c, caseId, theOperator(res), body);
      }),
    },
  ];
}
