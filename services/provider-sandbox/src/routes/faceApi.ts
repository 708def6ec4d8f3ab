// A face detect-and-verify cloud API (face_compare_a), its public wire protocol:
//   POST /face/v1.0/detect?returnFaceId=&returnFaceLandmarks=&returnFaceAttributes=&detectionModel=&recognitionModel=&faceIdTimeToLive=
//        header Ocp-Apim-Subscription-Key; body application/octet-stream (image bytes) or JSON {url}
//        200 [{faceId, faceRectangle, faceLandmarks?, faceAttributes?}] ([] when no face)
//   POST /face/v1.0/verify   body {faceId1, faceId2}   200 {isIdentical, confidence 0..1}
//   Errors: {error: {code, message}}; 401 bad key, 400 BadArgument / InvalidURL / InvalidImage.
import { randomUUID } from 'node:crypto';
import type { ParsedUrlQuery } from 'node:querystring';
import { faceOf, isSandboxSecret } from '../fixtures.ts';
import type { Answer, Call, Route } from '../router.ts';
import { textOfUrl } from './imageInput.ts';
import { similarity } from './faceMatch.ts';
import { recordOf } from './refuse.ts';

const DETECTION = ['detection_01', 'detection_02', 'detection_03'];
const RECOGNITION = ['recognition_01', 'recognition_02', 'recognition_03', 'recognition_04'];

function fail(status: number, code: string, message: string): Answer {
  return { status, body: { error: { code, message } } };
}

const DENIED = fail(
  401,
  '401',
  'Access denied due to invalid subscription key or wrong API endpoint.',
);

function badQuery(query: ParsedUrlQuery): string | undefined {
  const bool = (name: string) =>
    query[name] === undefined || ['true', 'false'].includes(String(query[name]));
  if (!bool('returnFaceId') || !bool('returnFaceLandmarks')) return 'boolean parameter is invalid';
  if (query.detectionModel && !DETECTION.includes(String(query.detectionModel)))
    return 'detectionModel is invalid';
  if (query.recognitionModel && !RECOGNITION.includes(String(query.recognitionModel)))
    return 'recognitionModel is invalid';
  const ttl = query.faceIdTimeToLive === undefined ? 86400 : Number(query.faceIdTimeToLive);
  if (!(ttl >= 60 && ttl <= 86400)) return 'faceIdTimeToLive must be between 60 and 86400';
  return undefined;
}

/** The image's text: octet-stream bytes, or the last path segment of a JSON body's url. */
function imageOf(body: unknown): string | Answer {
  if (Buffer.isBuffer(body))
    return body.length === 0 ? fail(400, 'InvalidImage', 'image is empty') : body.toString('utf8');
  const { url } = recordOf(body);
  if (typeof url === 'string') return textOfUrl(url);
  return fail(400, 'BadArgument', 'JSON body needs url, or send application/octet-stream');
}

export function faceApiRoutes(): Route[] {
  const faces = new Map<string, string>();
  const keyOk = (call: Call) => isSandboxSecret(call.headers['ocp-apim-subscription-key']);

  const detect = (call: Call): Answer => {
    if (!keyOk(call)) return DENIED;
    const { query } = call;
    const problem = badQuery(query);
    if (problem) return fail(400, 'BadArgument', problem);
    const text = imageOf(call.body);
    if (typeof text !== 'string') return text;
    const name = faceOf(text);
    if (!name) return { status: 200, body: [] };
    const face: Record<string, unknown> = {
      faceRectangle: { top: 40, left: 30, width: 120, height: 120 },
    };
    if (query.returnFaceId !== 'false') {
      const faceId = randomUUID();
      faces.set(faceId, name);
      face.faceId = faceId;
    }
    if (query.returnFaceLandmarks === 'true') face.faceLandmarks = { noseTip: { x: 90, y: 100 } };
    if (typeof query.returnFaceAttributes === 'string')
      face.faceAttributes = { qualityForRecognition: 'high' };
    return { status: 200, body: [face] };
  };

  const verify = (call: Call): Answer => {
    if (!keyOk(call)) return DENIED;
    const body = recordOf(call.body);
    const a = faces.get(String(body.faceId1));
    const b = faces.get(String(body.faceId2));
    if (!a || !b) return fail(400, 'BadArgument', 'Face ID is invalid.');
    const confidence = similarity(a, b) / 100;
    return { status: 200, body: { isIdentical: confidence >= 0.5, confidence } };
  };

  return [
    { method: 'POST', path: '/face/v1.0/detect', handle: detect },
    { method: 'POST', path: '/face/v1.0/verify', handle: verify },
  ];
}
