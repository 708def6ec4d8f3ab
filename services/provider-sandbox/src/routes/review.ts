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
import { isSandboxSecret } from '../fixtures.ts';
import type { Answer, Call, Route } from '../router.ts';
import {
  documentFixture,
  failures,
  hasDocumentImage,
  holderOf,
  isDocumentType,
} from './documentAnswers.ts';
import { textOfDocument } from './imageInput.ts';
import type { PendingReviews } from './pendingReviews.ts';
import { recordOf, refuse } from './refuse.ts';

/** ms until a review is decided: the body's decideAfterMs, else the image's REVIEW:<ms> line. */
function decideAfterMs(body: Record<string, unknown>, imageText: string): number | undefined {
  const given = body.decideAfterMs;
  if (typeof given === 'number' && Number.isInteger(given) && given >= 0) return given;
  const line = /^REVIEW:(\d{1,7})$/m.exec(imageText);
  return line ? Number(line[1]) : undefined;
}

const callbackUrlOf = (value: unknown): string | undefined =>
  typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value)
    ? value
    : undefined;

/** The refusal of a submit with a bad key or an incomplete body; undefined when it is fine. */
function refusal({ headers, body: given }: Call): Answer | undefined {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const body = recordOf(given);
  if (!isDocumentType(body.documentType))
    return refuse(400, 'documentType must be dl, ppt or idcard');
  if (!hasDocumentImage(body.images))
    return refuse(400, 'images.front_image or images.front_image_url is required');
  return undefined;
}

/** `later` holds the reviews still to be decided: the sandbox closes it when it stops. */
export function reviewRoutes(later: PendingReviews): Route[] {
  const agent = (call: Call): Answer => {
    const refused = refusal(call);
    if (refused) return refused;
    const body = recordOf(call.body);
    const doc = documentFixture(body.images);
    if (!doc)
      return {
        status: 200,
        body: { reviewId: randomUUID(), decision: 'pending', reasons: ['unreadable'] },
      };
    const reasons = failures(doc);
    const decided = {
      decision: reasons.length ? 'rejected' : 'approved',
      reasons,
      document: holderOf(doc),
    };
    const afterMs = decideAfterMs(body, textOfDocument(recordOf(body.images)));
    if (afterMs === undefined) return { status: 200, body: { reviewId: randomUUID(), ...decided } };
    const apiKey = String(call.headers['x-api-key']);
    const opened = later.open(apiKey, afterMs, decided, callbackUrlOf(body.callbackUrl));
    return { status: 202, body: { ...opened, decision: 'pending', reasons: [] } };
  };

  const read = ({ headers, params }: Call): Answer => {
    if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
    const review = later.read(String(params.reviewId), String(headers['x-api-key']));
    if (!review) return refuse(404, 'no such review');
    return { status: 200, body: review };
  };

  const auto = (call: Call): Answer => {
    const refused = refusal(call);
    if (refused) return refused;
    const doc = documentFixture(recordOf(call.body).images);
    if (!doc) return { status: 200, body: { score: 40, decision: 'refer', checks: {} } };
    const checks = { genuine: doc.genuine, notExpired: !doc.expired };
    const pass = doc.genuine && !doc.expired;
    return {
      status: 200,
      body: {
        score: pass ? 93 : 12,
        decision: pass ? 'pass' : 'fail',
        checks,
        document: holderOf(doc),
      },
    };
  };

  return [
    { method: 'POST', path: '/review/v1/agent', handle: agent },
    { method: 'GET', path: '/review/v1/agent/:reviewId', handle: read },
    { method: 'POST', path: '/review/v1/auto', handle: auto },
  ];
}
