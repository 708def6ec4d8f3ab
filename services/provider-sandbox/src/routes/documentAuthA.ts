// Document authentication provider A. Protocol (our own), modelled on a DQL-field scan service:
//   POST /air/v1/authenticate        headers x-access-key, x-secret-token
//        body {documentType: dl|ppt|idcard, images, responseFields?: [DQL_… names], accountCode?, shareSession?: boolean}
//        200 {transactionId, authenticationResult: Passed|Failed|Attention, alerts: [{name, result}], fields: {DQL_…: value}}
//        (fields limited to responseFields when given; Attention when the image is unreadable)
//   POST /air/v1/face-match          header x-api-key   body {source: {image|url}, target: {image|url}}   200 {score: 0..100, match}
//   POST /air/v1/document-liveness   headers x-access-key, x-secret-token   body {image|imageUrl}   200 {livenessScore: 0..100, live}
//   401 bad credentials; 400 missing documentType / image / source or target.
import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import { faceOf, isSandboxSecret, livenessOf, documentOf } from '../fixtures.ts';
import { documentFixture, hasDocumentImage } from './documentAnswers.ts';
import { similarity } from './faceMatch.ts';
import { textOfImage } from './imageInput.ts';
import { recordOf, refuse } from './refuse.ts';

const keysOk = (req: Request) =>
  isSandboxSecret(req.get('x-access-key')) && isSandboxSecret(req.get('x-secret-token'));

export function documentAuthARoutes(): Router {
  const router = Router();
  router.post('/air/v1/authenticate', (req, res) => {
    if (!keysOk(req)) return refuse(res, 401, 'access key or secret token not accepted');
    if (!['dl', 'ppt', 'idcard'].includes(req.body?.documentType))
      return refuse(res, 400, 'documentType is required');
    if (!hasDocumentImage(req.body?.images))
      return refuse(res, 400, 'images.front_image is required');
    const doc = documentFixture(req.body.images);
    const transactionId = randomUUID();
    if (!doc)
      return res.json({
        transactionId,
        authenticationResult: 'Attention',
        alerts: [{ name: 'Image unreadable', result: 'Attention' }],
        fields: {},
      });
    const { person, documentId, doe, doi, state } = doc.licence;
    const all: Record<string, string> = {
      DQL_Final_FirstName_Result: person.firstName,
      DQL_Final_Surname_Result: person.lastName,
      DQL_Final_BirthDate_Result: person.dob,
      DQL_Final_DocumentNumber_Result: documentId,
      DQL_Final_ExpirationDate_Result: doe,
      DQL_Final_IssueDate_Result: doi,
      DQL_Final_AddressState_Result: state,
      DQL_Classification_DocumentIssuerCountryCode: 'USA',
      DQL_ExpiredID_Result: doc.expired ? 'Expired' : 'Valid',
    };
    const wanted = Array.isArray(req.body.responseFields)
      ? (req.body.responseFields as string[])
      : Object.keys(all);
    const fields = Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)));
    const alerts = [
      { name: 'Document Tampering', result: doc.genuine ? 'Passed' : 'Failed' },
      { name: 'Document Expired', result: doc.expired ? 'Failed' : 'Passed' },
    ];
    const passed = alerts.every((a) => a.result === 'Passed');
    res.json({ transactionId, authenticationResult: passed ? 'Passed' : 'Failed', alerts, fields });
  });
  router.post('/air/v1/face-match', (req, res) => {
    if (!isSandboxSecret(req.get('x-api-key'))) return refuse(res, 401, 'x-api-key is not valid');
    if (!req.body?.source || !req.body?.target)
      return refuse(res, 400, 'source and target are required');
    const a = faceOf(textOfImage(req.body.source));
    const b = faceOf(textOfImage(req.body.target));
    const score = a && b ? similarity(a, b) : 0;
    res.json({ score, match: score >= 50 });
  });
  router.post('/air/v1/document-liveness', (req, res) => {
    if (!keysOk(req)) return refuse(res, 401, 'access key or secret token not accepted');
    const body = recordOf(req.body);
    const text = textOfImage({ image: body.image, url: body.imageUrl });
    const score = livenessOf(text) ?? (documentOf(text) ? 0.95 : undefined);
    if (score === undefined) return refuse(res, 400, 'image or imageUrl must hold a document');
    res.json({ livenessScore: score * 100, live: score >= 0.5 });
  });
  return router;
}
