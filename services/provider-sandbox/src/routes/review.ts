// Review providers (dl/ppt/idcard_authenticate). Protocol (our own), header x-api-key:
//   POST /review/v1/agent   body {documentType: dl|ppt|idcard, images: {front_image|front_image_url, back_image, ...}}
//        200 {reviewId, decision: approved|rejected|pending, reasons: [], document: {firstName, lastName, dob, documentNumber, expiry, issueDate, issuer}}
//        (pending: the agent could not tell, e.g. an unreadable image)
//   POST /review/v1/auto    same body; 200 {score: 0..100, decision: pass|fail|refer, checks: {genuine, notExpired}, document}
//   401 bad key; 400 documentType unknown or no front image.
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { isSandboxSecret } from '../fixtures.ts';
import { documentFixture, failures, hasDocumentImage, holderOf } from './documentAnswers.ts';
import { refuse } from './refuse.ts';

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
  router.post('/review/v1/agent', (req, res) => {
    if (!checked(req, res)) return;
    const doc = documentFixture(req.body.images);
    if (!doc)
      return res.json({ reviewId: randomUUID(), decision: 'pending', reasons: ['unreadable'] });
    const reasons = failures(doc);
    res.json({
      reviewId: randomUUID(),
      decision: reasons.length ? 'rejected' : 'approved',
      reasons,
      document: holderOf(doc),
    });
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
