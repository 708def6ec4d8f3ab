// Document authentication provider C. Protocol (our own), two versions:
//   POST /docc/v2/verify   headers x-license, Authorization Basic clientId:clientSecret
//        body {documentType: dl|ppt|idcard, images, shareSession: boolean}
//        200 {verdict: AUTHENTIC|FAKE|EXPIRED|UNKNOWN, confidence: 0..1, data: {firstName, lastName, dob, documentNumber, expiry, …}}
//   POST /docc/v1/verify   same headers and body; 200 {result: pass|fail|unknown, data}
//   401 bad licence or client; 400 documentType, images or shareSession missing.
import { Router, type Request, type Response } from 'express';
import { isSandboxSecret } from '../fixtures.ts';
import { documentFixture, hasDocumentImage, holderOf } from './documentAnswers.ts';
import { refuse } from './refuse.ts';

function accepted(req: Request, res: Response): boolean {
  const basic = /^Basic (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '';
  const [clientId, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
  if (!isSandboxSecret(req.get('x-license')) || !clientId || !isSandboxSecret(secret)) {
    refuse(res, 401, 'licence or client credentials not accepted');
    return false;
  }
  const body = req.body ?? {};
  if (
    !['dl', 'ppt', 'idcard'].includes(body.documentType) ||
    typeof body.shareSession !== 'boolean'
  ) {
    refuse(res, 400, 'documentType and shareSession are required');
    return false;
  }
  if (!hasDocumentImage(body.images)) {
    refuse(res, 400, 'images.front_image is required');
    return false;
  }
  return true;
}

export function documentAuthCRoutes(): Router {
  const router = Router();
  router.post('/docc/v2/verify', (req, res) => {
    if (!accepted(req, res)) return;
    const doc = documentFixture(req.body.images);
    if (!doc) return res.json({ verdict: 'UNKNOWN', confidence: 0.2, data: {} });
    const verdict = !doc.genuine ? 'FAKE' : doc.expired ? 'EXPIRED' : 'AUTHENTIC';
    res.json({ verdict, confidence: verdict === 'AUTHENTIC' ? 0.94 : 0.9, data: holderOf(doc) });
  });
  router.post('/docc/v1/verify', (req, res) => {
    if (!accepted(req, res)) return;
    const doc = documentFixture(req.body.images);
    if (!doc) return res.json({ result: 'unknown', data: {} });
    res.json({ result: doc.genuine && !doc.expired ? 'pass' : 'fail', data: holderOf(doc) });
  });
  return router;
}
