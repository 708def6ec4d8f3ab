// Face match provider B (face_compare). Protocol (our own):
//   POST /facematch/v1/compare   header x-api-key   body {source: {image|url}, target: {image|url}}
//   200 {similarity: 0..100, threshold: 50, match: boolean, reason?: "no_face_in_source"|"no_face_in_target"}
//   401 bad key; 400 source or target missing.
import { faceOf, isSandboxSecret } from '../fixtures.ts';
import type { Answer, Call, Route } from '../router.ts';
import { textOfImage } from './imageInput.ts';
import { recordOf, refuse } from './refuse.ts';

/** Same fixture name: a match; different: a clear mismatch. Shared by every face route. */
export function similarity(a: string, b: string): number {
  return a === b ? 96.5 : 11.2;
}

/** The fixture faces of a {source, target} body (undefined: no face in that image), or its 400. */
export function facePairOf(
  given: unknown,
): { refused: Answer } | { source: string | undefined; target: string | undefined } {
  const body = recordOf(given);
  if (!body.source || !body.target)
    return { refused: refuse(400, 'source and target are required') };
  return { source: faceOf(textOfImage(body.source)), target: faceOf(textOfImage(body.target)) };
}

function compare({ headers, body }: Call) {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const pair = facePairOf(body);
  if ('refused' in pair) return pair.refused;
  const { source, target } = pair;
  if (!source || !target) {
    const reason = source ? 'no_face_in_target' : 'no_face_in_source';
    return { status: 200, body: { similarity: 0, threshold: 50, match: false, reason } };
  }
  const score = similarity(source, target);
  return { status: 200, body: { similarity: score, threshold: 50, match: score >= 50 } };
}

export function faceMatchRoutes(): Route[] {
  return [{ method: 'POST', path: '/facematch/v1/compare', handle: compare }];
}
