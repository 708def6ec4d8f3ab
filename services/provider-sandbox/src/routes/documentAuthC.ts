// Document authentication provider C. Protocol (our own), two versions:
//   POST /docc/v2/verify   headers x-license, Authorization Basic clientId:clientSecret
//        body {documentType: dl|ppt|idcard, images, shareSession: boolean}
//        200 {verdict: AUTHENTIC|FAKE|EXPIRED|UNKNOWN, confidence: 0..1, data: {firstName, lastName, dob, documentNumber, expiry, …}}
//   POST /docc/v1/verify   same headers and body; 200 {result: pass|fail|unknown, data}
//   401 bad licence or client; 400 documentType, images or shareSession missing.
import { isSandboxSecret } from '../fixtures.ts';
import type { Answer, Call, Route } from '../router.ts';
import { documentFixture, hasDocumentImage, holderOf, isDocumentType } from './documentAnswers.ts';
import { recordOf, refuse } from './refuse.ts';

/** The refusal of a call with bad credentials or an incomplete body; undefined when it is fine. */
function refusal({ headers, body: given }: Call): Answer | undefined {
  const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
  const [clientId, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
  if (!isSandboxSecret(headers['x-license']) || !clientId || !isSandboxSecret(secret))
    return refuse(401, 'licence or client credentials not accepted');
  const body = recordOf(given);
  if (!isDocumentType(body.documentType) || typeof body.shareSession !== 'boolean')
    return refuse(400, 'documentType and shareSession are required');
  if (!hasDocumentImage(body.images)) return refuse(400, 'images.front_image is required');
  return undefined;
}

function verifyV2(call: Call): Answer {
  const refused = refusal(call);
  if (refused) return refused;
  const doc = documentFixture(recordOf(call.body).images);
  if (!doc) return { status: 200, body: { verdict: 'UNKNOWN', confidence: 0.2, data: {} } };
  const verdict = !doc.genuine ? 'FAKE' : doc.expired ? 'EXPIRED' : 'AUTHENTIC';
  const confidence = verdict === 'AUTHENTIC' ? 0.94 : 0.9;
  return { status: 200, body: { verdict, confidence, data: holderOf(doc) } };
}

function verifyV1(call: Call): Answer {
  const refused = refusal(call);
  if (refused) return refused;
  const doc = documentFixture(recordOf(call.body).images);
  if (!doc) return { status: 200, body: { result: 'unknown', data: {} } };
  const result = doc.genuine && !doc.expired ? 'pass' : 'fail';
  return { status: 200, body: { result, data: holderOf(doc) } };
}

export function documentAuthCRoutes(): Route[] {
  return [
    { method: 'POST', path: '/docc/v2/verify', handle: verifyV2 },
    { method: 'POST', path: '/docc/v1/verify', handle: verifyV1 },
  ];
}
