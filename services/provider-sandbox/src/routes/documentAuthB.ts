// Document authentication provider B. Protocol (our own), OAuth client credentials then a transaction:
//   POST /docb/oauth/token   form grant_type=client_credentials, client_id, client_secret   200 {access_token, token_type, expires_in}
//   POST /docb/api/v1/transactions   Bearer token + x-api-key
//        body {flowId, documentType, images, options: {seldocTypeFilter: [], confirm, scores}, shareSession?}
//        200 {transactionId, status: ACCEPTED|REJECTED|REVIEW, reasons, scores?: {overall: 0..100}, document?: {…}}
//   DELETE /docb/api/v1/transactions/<id>   Bearer + x-api-key   204 (unless keepTransaction)
//   POST /docb/api/v1/face/compare   Bearer token + x-api-key (the face key)   body {source, target}   200 {score: 0..1, match}
//   401 bad client or token or key; 400 missing flowId / documentType / images / source / target.
import { randomUUID } from 'node:crypto';
import express, { Router, type Request } from 'express';
import { faceOf, isSandboxSecret } from '../fixtures.ts';
import { documentFixture, failures, hasDocumentImage, holderOf } from './documentAnswers.ts';
import { similarity } from './faceMatch.ts';
import { textOfImage } from './imageInput.ts';
import { refuse } from './refuse.ts';

export function documentAuthBRoutes(): Router {
  const router = Router();
  const tokens = new Set<string>();
  const transactions = new Set<string>();
  const authorised = (req: Request) =>
    tokens.has(/^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '') &&
    isSandboxSecret(req.get('x-api-key'));
  router.post('/docb/oauth/token', express.urlencoded({ extended: false }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials')
      return refuse(res, 400, 'grant_type must be client_credentials');
    if (!body.client_id || !isSandboxSecret(body.client_secret))
      return refuse(res, 401, 'invalid_client');
    const token = `docb-${randomUUID()}`;
    tokens.add(token);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 600 });
  });
  router.post('/docb/api/v1/transactions', (req, res) => {
    if (!authorised(req)) return refuse(res, 401, 'token or api key not accepted');
    const body = req.body ?? {};
    if (typeof body.flowId !== 'string' || !['dl', 'ppt', 'idcard'].includes(body.documentType)) {
      return refuse(res, 400, 'flowId and documentType (dl|ppt|idcard) are required');
    }
    if (!hasDocumentImage(body.images)) return refuse(res, 400, 'images.front_image is required');
    const transactionId = randomUUID();
    transactions.add(transactionId);
    const doc = documentFixture(body.images);
    if (!doc) return res.json({ transactionId, status: 'REVIEW', reasons: ['unreadable'] });
    const reasons = failures(doc);
    const answer = {
      transactionId,
      status: reasons.length ? 'REJECTED' : 'ACCEPTED',
      reasons,
      document: holderOf(doc),
    };
    res.json(
      body.options?.scores ? { ...answer, scores: { overall: reasons.length ? 8 : 91 } } : answer,
    );
  });
  router.delete('/docb/api/v1/transactions/:id', (req, res) => {
    if (!authorised(req)) return refuse(res, 401, 'token or api key not accepted');
    if (!transactions.delete(req.params.id)) return refuse(res, 404, 'no such transaction');
    res.status(204).end();
  });
  router.post('/docb/api/v1/face/compare', (req, res) => {
    if (!authorised(req)) return refuse(res, 401, 'token or face api key not accepted');
    if (!req.body?.source || !req.body?.target)
      return refuse(res, 400, 'source and target are required');
    const a = faceOf(textOfImage(req.body.source));
    const b = faceOf(textOfImage(req.body.target));
    const score = a && b ? similarity(a, b) / 100 : 0;
    res.json({ score, match: score >= 0.5 });
  });
  return router;
}
