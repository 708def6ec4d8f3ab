// Review providers (dl/ppt/idcard_authenticate). Protocol (our own), header x-api-key:
//   POST /review/v1/agent   body {documentType: dl|ppt|idcard, images: {front_image|front_image_url, back_image, ...}}
//        200 {reviewId, decision: approved|rejected|pending, reasons: [], document: {firstName, lastName, dob, documentNumber, expiry, issueDate, issuer}}
//        (pending: the agent could not tell, e.g. an unreadable image; a final answer)
//        Decided later: a document image with a line REVIEW:<ms> (e.g. "DOC:testy\nREVIEW:3000"), or
//        body member decideAfterMs, answers 202 {reviewId, decision: pending, decideAt}; with body
//        member callbackUrl the decision is POSTed there, signed (pendingReviews.ts).
//   GET  /review/v1/agent/{reviewId}  200 {reviewId, decision: pending, decideAt} until decided, then
//        the submit's final answer; 404 unknown (or another account's) review.
//   POST /review/v1/auto    same body; 200 {score: 0..100, decision: pass|fail|refer, checks: {genuine, notExpired}, document}
//   401 bad key; 400 documentType unknown or no front image.
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { isSandboxSecret } from '../fixtures.ts';
import { documentFixture, failures, hasDocumentImage, holderOf } from './documentAnswers.ts';
import { textOfDocument } from './imageInput.ts';
import { PendingReviews } from './pendingReviews.ts';
import { recordOf, refuse } from './refuse.ts';

/** ms until a review is decided: the body's decideAfterMs, else the image's REVIEW:<ms> line. */
function decideAfterMs(body: Record<string, unknown>, imageText: string): number | undefined {
  const given = body.decideAfterMs;
  if (typeof given === 'number' && Number.isInteger(given) && given >= 0) return given;
  const line = /^REVIEW:(\d{1,7})$/m.exec(imageText);
  return line ? Number(line[1]) : undefined;
}

const callbackUrlOf = (value: unknown): string | undefined =>
  typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined;

function checked(req: Request, res: Response): boolean {
  if (!isSandboxSecret(req.get('x-api-key'))) {
    refuse(res, 401, 'x-api-key is not valid');
    return false;
  }
  if (!['dl', 'ppt', 'idcard'].includes(req.body?.documentType)) {
    refuse(res, 400, 'documentType must be dl, ppt or idcard');
    return false;
  }
  if (!hasDocumentImage(req.body?.images)) {
    refuse(res, 400, 'images.front_image or images.front_image_url is required');
    return false;
  }
  return true;
}

export function reviewRoutes(): Router {
  const router = Router();
  const later = new PendingReviews();
  router.post('/review/v1/agent', (req, res) => {
    if (!checked(req, res)) return;
    const doc = documentFixture(req.body.images);
    if (!doc)
      return res.json({ reviewId: randomUUID(), decision: 'pending', reasons: ['unreadable'] });
    const reasons = failures(doc);
    const decided = {
      decision: reasons.length ? 'rejected' : 'approved',
      reasons,
      document: holderOf(doc),
    };
    const afterMs = decideAfterMs(req.body, textOfDocument(recordOf(req.body.images)));
    if (afterMs === undefined) return res.json({ reviewId: randomUUID(), ...decided });
    const apiKey = String(req.get('x-api-key'));
    const opened = later.open(apiKey, afterMs, decided, callbackUrlOf(req.body.callbackUrl));
    res.status(202).json({ ...opened, decision: 'pending', reasons: [] });
  });
  router.get('/review/v1/agent/:reviewId', (req, res) => {
    if (!isSandboxSecret(req.get('x-api-key'))) return refuse(res, 401, 'x-api-key is not valid');
    const review = later.read(String(req.params.reviewId), String(req.get('x-api-key')));
    if (!review) return refuse(res, 404, 'no such review');
    res.json(review);
  });
  router.post('/review/v1/auto', (req, res) => {
    if (!checked(req, res)) return;
    const doc = documentFixture(req.body.images);
    if (!doc) return res.json({ score: 40, decision: 'refer', checks: {} });
    const checks = { genuine: doc.genuine, notExpired: !doc.expired };
    const pass = doc.genuine && !doc.expired;
    res.json({
      score: pass ? 93 : 12,
      decision: pass ? 'pass' : 'fail',
      checks,
      document: holderOf(doc),
    });
  });
  return router;
}
