// What operators and tenants' tools read of review cases (DESIGN 2.5): the queue, a case without
// personal data, the reason codes, and (audited, reviewers and licences only) the person's data
// and images of a case, and its note texts and resubmission link.
import {
  ReviewCase,
  ReviewCaseData,
  ReviewCaseList,
  ReviewCaseListQuery,
  ReviewReasons,
} from '@idv/contracts';
import { NotFound, parseBody, type Route } from '@idv/http';
import { appendAudit, type TenantStore } from '@idv/platform';
import type { Request, Response } from 'express';
import { REVIEW_REASONS } from './reviewReasons.ts';
import { caseData, caseImage, mediaTypeOf } from './caseData.ts';
import { caseSummary, caseView } from './caseView.ts';
import type { ReviewDeps } from './deps.ts';
import type { ReviewCaseRecord } from './reviewCaseStore.ts';
import { communityOfPath } from '../shared/community.ts';
import { afterCursor, listQuery, nextCursor } from '../shared/listCursor.ts';
import {
  actorOf,
  anyOperatorOrLicence,
  CASE_READERS,
  operatorOrLicence,
  readsCaseTexts,
  REVIEWERS,
  type ReviewAccessDeps,
} from '../shared/operatorAccess.ts';

export interface ReviewRouteDeps extends ReviewDeps, ReviewAccessDeps {
  tenants: TenantStore;
}

export const CASES_PATH = '/review/community/:communityId/cases';

export function reviewCaseRoutes(deps: ReviewRouteDeps): Route[] {
  const community = communityOfPath(deps.tenants);
  const readers = [operatorOrLicence(deps, CASE_READERS)];
  const reviewers = [operatorOrLicence(deps, REVIEWERS)];
  const caseOf = async (req: Request): Promise<ReviewCaseRecord> => {
    const { id } = await community(req);
    const found = await deps.reviews.get(String(req.params.caseId), id);
    if (!found) throw new NotFound(`case ${String(req.params.caseId)} not found`);
    return found;
  };
  /** A read of the person's data, in the audit log before the answer goes. */
  const audited = (
    res: Response,
    kase: ReviewCaseRecord,
    action: string,
    details: Record<string, unknown> = {},
  ) =>
    deps.reviews.transaction((trx) =>
      appendAudit(trx, {
        actor: actorOf(res),
        action,
        communityId: kase.communityId,
        subject: { kind: 'review_case', id: kase.id },
        details: { verificationId: kase.currentRunId, ...details },
      }),
    );

  return [
    {
      method: 'GET',
      path: '/review/reasons',
      guards: [anyOperatorOrLicence(deps)],
      doc: {
        summary:
          'the reason codes of review decisions: the decisions each fits, its meaning for operators, its text for the person (en, es) and, for a resubmission, what is captured again',
        response: ReviewReasons,
      },
      handler: (_req, res) => res.json({ reasons: [...REVIEW_REASONS] } satisfies ReviewReasons),
    },
    {
      method: 'GET',
      path: CASES_PATH,
      guards: readers,
      doc: {
        summary:
          "the community's review cases, oldest first (?state, ?assignee = an operator's username, ?overdue=true: live cases past dueAt, ?limit 1..100, ?cursor = next of the previous page); no personal data",
        response: ReviewCaseList,
      },
      handler: async (req, res) => {
        const query = parseBody(ReviewCaseListQuery, listQuery(req));
        const { id } = await community(req);
        const limit = query.limit ?? 25;
        const cases = await deps.reviews.list(id, {
          state: query.state,
          assignee: query.assignee,
          overdueAt: query.overdue === 'true' ? deps.clock.now() : undefined,
          after: afterCursor(query.cursor, 'next'),
          limit,
        });
        res.json({
          items: cases.map(caseSummary),
          next: nextCursor(cases, limit, (kase) => [kase.openedAt, kase.id]),
        } satisfies ReviewCaseList);
      },
    },
    {
      method: 'GET',
      path: `${CASES_PATH}/:caseId`,
      guards: readers,
      doc: {
        summary:
          "one case without the person's data: state, four-eyes, due time, assignee, the checks of the run under review (provider, status, score), history, notes, decisions, resubmission. Note texts and the resubmission's link only for reviewers, senior reviewers, admins and licences (such a read is audited: case.notes.read); viewers and auditors read each note's id, time and author, and the resubmission's session and expiry",
        response: ReviewCase,
      },
      handler: async (req, res) => {
        const kase = await caseOf(req);
        const view = await caseView(deps, kase, deps.clock.now(), readsCaseTexts(res));
        const notes = view.notes.filter((note) => typeof note.text === 'string').length;
        const link = view.resubmission?.url !== undefined;
        if (notes > 0 || link) await audited(res, kase, 'case.notes.read', { notes, link });
        res.set('Cache-Control', 'no-store').json(view);
      },
    },
    {
      method: 'GET',
      path: `${CASES_PATH}/:caseId/data`,
      guards: reviewers,
      doc: {
        summary:
          "the person's data of a case: what the document checks read beside what the caller sent, and the images held (each read is audited: case.data.read); 410 once the data is gone",
        response: ReviewCaseData,
        errors: [410],
      },
      handler: async (req, res) => {
        const kase = await caseOf(req);
        const data = await caseData(deps, kase);
        await audited(res, kase, 'case.data.read');
        res.set('Cache-Control', 'no-store').json(data);
      },
    },
    {
      method: 'GET',
      path: `${CASES_PATH}/:caseId/images/:name`,
      guards: reviewers,
      doc: {
        summary:
          'one image of a case (front, back, passport, selfie) as bytes, its content type from the bytes; each read is audited (case.image.read)',
      },
      handler: async (req, res) => {
        const kase = await caseOf(req);
        const name = String(req.params.name);
        const bytes = await caseImage(deps, kase, name);
        await audited(res, kase, 'case.image.read', { image: name });
        // the bytes are the person's upload: never sniffed into something a browser runs
        res
          .set({
            'Content-Type': mediaTypeOf(bytes),
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
            'Content-Disposition': `inline; filename="${name}"`,
          })
          .send(bytes);
      },
    },
  ];
}
