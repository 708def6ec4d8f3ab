// Document authentication provider A. Protocol (our own), modelled on a DQL-field scan service:
//   POST /air/v1/authenticate        headers x-access-key, x-secret-token
//        body {documentType: dl|ppt|idcard, images, responseFields?: [DQL_… names], accountCode?, shareSession?: boolean}
//        200 {transactionId, authenticationResult: Passed|Failed|Attention, alerts: [{name, result}], fields: {DQL_…: value}}
//        (fields limited to responseFields when given; Attention when the image is unreadable)
//   POST /air/v1/face-match          header x-api-key   body {source: {image|url}, target: {image|url}}   200 {score: 0..100, match}
//   POST /air/v1/document-liveness   headers x-access-key, x-secret-token   body {image|imageUrl}   200 {livenessScore: 0..100, live}
//   401 bad credentials; 400 missing documentType / image / source or target.
import { randomUUID } from 'node:crypto';
import { isSandboxSecret, livenessOf, documentOf } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import { documentFixture, hasDocumentImage, isDocumentType } from './documentAnswers.ts';
import { facePairOf, similarity } from './faceMatch.ts';
import { textOfImage } from './imageInput.ts';
import { recordOf, refuse } from './refuse.ts';

const keysOk = ({ headers }: Call) =>
  isSandboxSecret(headers['x-access-key']) && isSandboxSecret(headers['x-secret-token']);

function authenticate(call: Call) {
  if (!keysOk(call)) return refuse(401, 'access key or secret token not accepted');
  const body = recordOf(call.body);
  if (!isDocumentType(body.documentType)) return refuse(400, 'documentType is required');
  if (!hasDocumentImage(body.images)) return refuse(400, 'images.front_image is required');
  const doc = documentFixture(body.images);
  const transactionId = randomUUID();
  if (!doc) {
    const alerts = [{ name: 'Image unreadable', result: 'Attention' }];
    return {
      status: 200,
      body: { transactionId, authenticationResult: 'Attention', alerts, fields: {} },
    };
  }
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
  const wanted = Array.isArray(body.responseFields)
    ? (body.responseFields as string[])
    : Object.keys(all);
  const fields = Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)));
  const alerts = [
    { name: 'Document Tampering', result: doc.genuine ? 'Passed' : 'Failed' },
    { name: 'Document Expired', result: doc.expired ? 'Failed' : 'Passed' },
  ];
  const passed = alerts.every((a) => a.result === 'Passed');
  return {
    status: 200,
    body: { transactionId, authenticationResult: passed ? 'Passed' : 'Failed', alerts, fields },
  };
}

function faceMatch({ headers, body }: Call) {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const pair = facePairOf(body);
  if ('refused' in pair) return pair.refused;
  const { source, target } = pair;
  const score = source && target ? similarity(source, target) : 0;
  return { status: 200, body: { score, match: score >= 50 } };
}

function documentLiveness(call: Call) {
  if (!keysOk(call)) return refuse(401, 'access key or secret token not accepted');
  const body = recordOf(call.body);
  const text = textOfImage({ image: body.image, url: body.imageUrl });
  const score = livenessOf(text) ?? (documentOf(text) ? 0.95 : undefined);
  if (score === undefined) return refuse(400, 'image or imageUrl must hold a document');
  return { status: 200, body: { livenessScore: score * 100, live: score >= 0.5 } };
}

export function documentAuthARoutes(): Route[] {
  return [
    { method: 'POST', path: '/air/v1/authenticate', handle: authenticate },
    { method: 'POST', path: '/air/v1/face-match', handle: faceMatch },
    { method: 'POST', path: '/air/v1/document-liveness', handle: documentLiveness },
  ];
}
