// The cloud image-analysis service's CompareFaces (face_cloud), its public wire protocol:
//   POST /   X-Amz-Target: RekognitionService.CompareFaces   Content-Type: application/x-amz-json-1.1
//   SigV4-signed (service "rekognition"); body {SourceImage: {Bytes: base64}, TargetImage: {Bytes}, SimilarityThreshold?}
//   200 {SourceImageFace, FaceMatches: [{Similarity, Face}], UnmatchedFaces}: faces under the threshold
//   (default 80) go to UnmatchedFaces. Errors {__type, message} with 400 (InvalidParameterException,
//   e.g. no face in the source image), 403 (signature or key problems).
import express, { Router, type Response } from 'express';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY, faceOf, imageText } from '../fixtures.ts';
import { checkSigV4 } from '../sigv4.ts';
import { similarity } from './faceMatch.ts';

function fail(res: Response, status: number, type: string, message: string): void {
  res.status(status).set('x-amzn-errortype', type).type('application/x-amz-json-1.1');
  res.send(JSON.stringify({ __type: type, message }));
}

const box = { Width: 0.4, Height: 0.5, Left: 0.3, Top: 0.2 };

export function rekognitionRoutes(): Router {
  const router = Router();
  router.post('/', express.raw({ type: () => true, limit: '10mb' }), (req, res, next) => {
    if (!req.get('x-amz-target')) return next();
    if (req.get('x-amz-target') !== 'RekognitionService.CompareFaces') {
      return fail(res, 400, 'UnknownOperationException', 'only CompareFaces is served here');
    }
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signed = checkSigV4(req, raw, { [CLOUD_ACCESS_KEY]: CLOUD_SECRET_KEY }, 'rekognition');
    if (!signed.ok) return fail(res, 403, signed.type, signed.message);
    let body: Record<string, { Bytes?: unknown } | number | undefined>;
    try {
      body = JSON.parse(raw.toString('utf8')) as typeof body;
    } catch {
      return fail(res, 400, 'SerializationException', 'body is not JSON');
    }
    const source = body.SourceImage;
    const target = body.TargetImage;
    if (
      typeof source !== 'object' ||
      typeof target !== 'object' ||
      typeof source.Bytes !== 'string' ||
      typeof target.Bytes !== 'string'
    ) {
      return fail(
        res,
        400,
        'InvalidParameterException',
        'SourceImage.Bytes and TargetImage.Bytes are required',
      );
    }
    const threshold = typeof body.SimilarityThreshold === 'number' ? body.SimilarityThreshold : 80;
    const sourceFace = faceOf(imageText(source.Bytes));
    if (!sourceFace)
      return fail(res, 400, 'InvalidParameterException', 'Request has invalid parameters');
    const targetFace = faceOf(imageText(target.Bytes));
    const face = { BoundingBox: box, Confidence: 99.9 };
    const score = targetFace ? similarity(sourceFace, targetFace) : undefined;
    res.type('application/x-amz-json-1.1').send(
      JSON.stringify({
        SourceImageFace: face,
        FaceMatches:
          score !== undefined && score >= threshold ? [{ Similarity: score, Face: face }] : [],
        UnmatchedFaces: score !== undefined && score < threshold ? [face] : [],
      }),
    );
  });
  return router;
}
