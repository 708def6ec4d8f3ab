// The cloud image-analysis service's CompareFaces (face_cloud), its public wire protocol:
//   POST /   X-Amz-Target: RekognitionService.CompareFaces   Content-Type: application/x-amz-json-1.1
//   SigV4-signed (service "rekognition"); body {SourceImage: {Bytes: base64}, TargetImage: {Bytes}, SimilarityThreshold?}
//   200 {SourceImageFace, FaceMatches: [{Similarity, Face}], UnmatchedFaces}: faces under the threshold
//   (default 80) go to UnmatchedFaces. Errors {__type, message} with 400 (InvalidParameterException,
//   e.g. no face in the source image), 403 (signature or key problems).
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY, faceOf, imageText } from '../fixtures.ts';
import { NOT_FOUND, type Answer, type Call, type Route } from '../router.ts';
import { checkSigV4 } from '../sigv4.ts';
import { similarity } from './faceMatch.ts';

const AMZ_JSON = 'application/x-amz-json-1.1; charset=utf-8';

function fail(status: number, type: string, message: string): Answer {
  return {
    status,
    headers: { 'x-amzn-errortype': type, 'content-type': AMZ_JSON },
    body: { __type: type, message },
  };
}

const box = { Width: 0.4, Height: 0.5, Left: 0.3, Top: 0.2 };

function compareFaces(call: Call): Answer {
  const target = call.headers['x-amz-target'];
  // Without the header this is no cloud call; nothing else answers POST /.
  if (!target) return NOT_FOUND;
  if (target !== 'RekognitionService.CompareFaces') {
    return fail(400, 'UnknownOperationException', 'only CompareFaces is served here');
  }
  const raw = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
  const signed = checkSigV4(call, raw, { [CLOUD_ACCESS_KEY]: CLOUD_SECRET_KEY }, 'rekognition');
  if (!signed.ok) return fail(403, signed.type, signed.message);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return fail(400, 'SerializationException', 'body is not JSON');
  }
  // null, a number or a list parses too: the service wants an object
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return fail(400, 'SerializationException', 'body is not a JSON object');
  const body = parsed as Record<string, { Bytes?: unknown } | number | undefined>;
  const source = body.SourceImage;
  const targetImage = body.TargetImage;
  if (
    typeof source !== 'object' ||
    typeof targetImage !== 'object' ||
    typeof source.Bytes !== 'string' ||
    typeof targetImage.Bytes !== 'string'
  ) {
    return fail(
      400,
      'InvalidParameterException',
      'SourceImage.Bytes and TargetImage.Bytes are required',
    );
  }
  const threshold = typeof body.SimilarityThreshold === 'number' ? body.SimilarityThreshold : 80;
  const sourceFace = faceOf(imageText(source.Bytes));
  if (!sourceFace) return fail(400, 'InvalidParameterException', 'Request has invalid parameters');
  const targetFace = faceOf(imageText(targetImage.Bytes));
  const face = { BoundingBox: box, Confidence: 99.9 };
  const score = targetFace ? similarity(sourceFace, targetFace) : undefined;
  return {
    status: 200,
    headers: { 'content-type': AMZ_JSON },
    body: {
      SourceImageFace: face,
      FaceMatches:
        score !== undefined && score >= threshold ? [{ Similarity: score, Face: face }] : [],
      UnmatchedFaces: score !== undefined && score < threshold ? [face] : [],
    },
  };
}

/** The signature covers the exact bytes, so the body stays raw whatever its content type. */
export function rekognitionRoutes(): Route[] {
  return [{ method: 'POST', path: '/', body: 'raw', handle: compareFaces }];
}
