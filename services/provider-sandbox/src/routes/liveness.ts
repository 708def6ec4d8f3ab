// Liveness provider (face_liveness, document_liveness). Protocol (our own):
//   POST /liveness/v1/face       header x-api-key   body {image?|imageUrl?, calibration: SOFT|REGULAR|HARDENED, purpose?, operatingSystem?}
//   POST /liveness/v1/document   header x-api-key   body {image?|imageUrl?}
//   200 {score: 0..1, live: boolean, threshold, calibration?}; the calibration sets the threshold
//   (SOFT 0.3, REGULAR 0.5, HARDENED 0.8). 401 bad key; 400 no image, unknown calibration,
//   or an image that holds no face (face) / no document (document).
import { documentOf, faceOf, isSandboxSecret, livenessOf } from '../fixtures.ts';
import type { Call, Route } from '../router.ts';
import { textOfImage } from './imageInput.ts';
import { recordOf, refuse } from './refuse.ts';

const THRESHOLDS: Record<string, number> = { SOFT: 0.3, REGULAR: 0.5, HARDENED: 0.8 };

function faceLiveness({ headers, body: given }: Call) {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const body = recordOf(given);
  const threshold = THRESHOLDS[String(body.calibration)];
  if (threshold === undefined) return refuse(400, 'calibration must be SOFT, REGULAR or HARDENED');
  const text = textOfImage({ image: body.image, url: body.imageUrl });
  const score = livenessOf(text) ?? (faceOf(text) ? 0.9 : undefined);
  if (score === undefined) return refuse(400, 'image or imageUrl must hold a face');
  const live = score >= threshold;
  return { status: 200, body: { score, live, threshold, calibration: body.calibration } };
}

function documentLiveness({ headers, body: given }: Call) {
  if (!isSandboxSecret(headers['x-api-key'])) return refuse(401, 'x-api-key is not valid');
  const body = recordOf(given);
  const text = textOfImage({ image: body.image, url: body.imageUrl });
  const score = livenessOf(text) ?? (documentOf(text) ? 0.95 : undefined);
  if (score === undefined) return refuse(400, 'image or imageUrl must hold a document');
  return { status: 200, body: { score, live: score >= 0.5, threshold: 0.5 } };
}

export function livenessRoutes(): Route[] {
  return [
    { method: 'POST', path: '/liveness/v1/face', handle: faceLiveness },
    { method: 'POST', path: '/liveness/v1/document', handle: documentLiveness },
  ];
}
