// A face detect-and-verify cloud API (face_compare_a), its public wire protocol:
//   POST /face/v1.0/detect?returnFaceId=&returnFaceLandmarks=&returnFaceAttributes=&detectionModel=&recognitionModel=&faceIdTimeToLive=
//        header Ocp-Apim-Subscription-Key; body application/octet-stream (image bytes) or JSON {url}
//        200 [{faceId, faceRectangle, faceLandmarks?, faceAttributes?}] ([] when no face)
//   POST /face/v1.0/verify   body {faceId1, faceId2}   200 {isIdentical, confidence 0..1}
//   Errors: {error: {code, message}}; 401 bad key, 400 BadArgument / InvalidURL / InvalidImage.
import { randomUUID } from 'node:crypto';
import { Router, type Response } from 'express';
import { faceOf, isSandboxSecret } from '../fixtures.ts';
import { textOfUrl } from './imageInput.ts';
import { similarity } from './faceMatch.ts';

const DETECTION = ['detection_01', 'detection_02', 'detection_03'];
const RECOGNITION = ['recognition_01', 'recognition_02', 'recognition_03', 'recognition_04'];

function fail(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ error: { code, message } });
}

function badQuery(query: Record<string, unknown>): string | undefined {
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

export function faceApiRoutes(): Router {
  const router = Router();
  const faces = new Map<string, string>();
  router.use('/face/v1.0', (req, res, next) => {
    if (!isSandboxSecret(req.get('ocp-apim-subscription-key'))) {
      return fail(
        res,
        401,
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint.',
      );
    }
    next();
  });
  router.post('/face/v1.0/detect', (req, res) => {
    const problem = badQuery(req.query);
    if (problem) return fail(res, 400, 'BadArgument', problem);
    let text: string;
    if (req.is('application/octet-stream')) {
      if (!Buffer.isBuffer(req.body) || req.body.length === 0)
        return fail(res, 400, 'InvalidImage', 'image is empty');
      text = req.body.toString('utf8');
    } else if (req.is('application/json') && typeof req.body?.url === 'string') {
      text = textOfUrl(req.body.url);
    } else {
      return fail(res, 400, 'BadArgument', 'JSON body needs url, or send application/octet-stream');
    }
    const name = faceOf(text);
    if (!name) return res.json([]);
    const face: Record<string, unknown> = {
      faceRectangle: { top: 40, left: 30, width: 120, height: 120 },
    };
    if (req.query.returnFaceId !== 'false') {
      const faceId = randomUUID();
      faces.set(faceId, name);
      face.faceId = faceId;
    }
    if (req.query.returnFaceLandmarks === 'true')
      face.faceLandmarks = { noseTip: { x: 90, y: 100 } };
    if (typeof req.query.returnFaceAttributes === 'string')
      face.faceAttributes = { qualityForRecognition: 'high' };
    res.json([face]);
  });
  router.post('/face/v1.0/verify', (req, res) => {
    const a = faces.get(String(req.body?.faceId1));
    const b = faces.get(String(req.body?.faceId2));
    if (!a || !b) return fail(res, 400, 'BadArgument', 'Face ID is invalid.');
    const confidence = similarity(a, b) / 100;
    res.json({ isIdentical: confidence >= 0.5, confidence });
  });
  return router;
}
