// Document authentication provider B. Protocol (our own), OAuth client credentials then a transaction:
//   POST /docb/oauth/token   form grant_type=client_credentials, client_id, client_secret   200 {access_token, token_type, expires_in}
//   POST /docb/api/v1/transactions   Bearer token + x-api-key
//        body {flowId, documentType, images, options: {seldocTypeFilter: [], confirm, scores}, shareSession?}
//        200 {transactionId, status: ACCEPTED|REJECTED|REVIEW, reasons, scores?: {overall: 0..100}, document?: {…}}
//   DELETE /docb/api/v1/transactions/<id>   Bearer + x-api-key   204 (unless keepTransaction)
//   POST /docb/api/v1/face/compare   Bearer token + x-api-key (the face key)   body {source, target}   200 {score: 0..1, match}
//   401 bad client or token or key; 400 missing flowId / documentType / images / source / target.
import { randomUUID } from 'node:crypto';
import { isSandboxSecret } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import {
  documentFixture,
  failures,
  hasDocumentImage,
  holderOf,
  isDocumentType,
} from './documentAnswers.ts';
import { facePairOf, similarity } from './faceMatch.ts';
import { recordOf, refuse } from './refuse.ts';
import { TokenBook } from './tokens.ts';

export function documentAuthBRoutes(): Route[] {
  const tokens = new TokenBook('docb', 600);
  const transactions = new Set<string>();
  const authorised = ({ headers }: Call) =>
    tokens.accepts(headers.authorization) && isSandboxSecret(headers['x-api-key']);

  const token = (call: Call) => {
    const body = recordOf(call.body);
    if (body.grant_type !== 'client_credentials')
      return refuse(400, 'grant_type must be client_credentials');
    if (!body.client_id || !isSandboxSecret(body.client_secret))
      return refuse(401, 'invalid_client');
    const issued = tokens.issue();
    return {
      status: 200,
      body: { access_token: issued, token_type: 'Bearer', expires_in: tokens.lifetimeS },
    };
  };

  const transaction = (call: Call) => {
    if (!authorised(call)) return refuse(401, 'token or api key not accepted');
    const body = recordOf(call.body);
    if (typeof body.flowId !== 'string' || !isDocumentType(body.documentType)) {
      return refuse(400, 'flowId and documentType (dl|ppt|idcard) are required');
    }
    if (!hasDocumentImage(body.images)) return refuse(400, 'images.front_image is required');
    const transactionId = randomUUID();
    transactions.add(transactionId);
    const doc = documentFixture(body.images);
    if (!doc)
      return { status: 200, body: { transactionId, status: 'REVIEW', reasons: ['unreadable'] } };
    const reasons = failures(doc);
    const answer = {
      transactionId,
      status: reasons.length ? 'REJECTED' : 'ACCEPTED',
      reasons,
      document: holderOf(doc),
    };
    const scored = recordOf(body.options).scores;
    return {
      status: 200,
      body: scored ? { ...answer, scores: { overall: reasons.length ? 8 : 91 } } : answer,
    };
  };

  const forget = (call: Call) => {
    if (!authorised(call)) return refuse(401, 'token or api key not accepted');
    if (!transactions.delete(call.params.id ?? '')) return refuse(404, 'no such transaction');
    return { status: 204 };
  };

  const faceCompare = (call: Call) => {
    if (!authorised(call)) return refuse(401, 'token or face api key not accepted');
    const pair = facePairOf(call.body);
    if ('refused' in pair) return pair.refused;
    const { source, target } = pair;
    const score = source && target ? similarity(source, target) / 100 : 0;
    return { status: 200, body: { score, match: score >= 0.5 } };
  };

  return [
    { method: 'POST', path: '/docb/oauth/token', body: 'form', handle: token },
    { method: 'POST', path: '/docb/api/v1/transactions', handle: transaction },
    { method: 'DELETE', path: '/docb/api/v1/transactions/:id', handle: forget },
    { method: 'POST', path: '/docb/api/v1/face/compare', handle: faceCompare },
  ];
}
