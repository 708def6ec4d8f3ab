// basic_face: face_compare offline in the worker, no provider called. The two images of the
// request (image1 or liveId: the selfie; image2: the document or its portrait, base64 only) are
// admitted and decoded by @idv/images in worker threads, their largest faces described by
// @idv/faces (face-api's landmarks and recognition nets), and compared: score = 100 x (1 -
// distance of the descriptors), a match at or above the threshold (config.threshold, else
// BASIC_FACE_THRESHOLD, chosen from the evaluation in docs/connectors.md). Every answer is advisory (the
// result says so), carrying the score and the threshold. No face in an image: inconclusive.
import { availableParallelism } from 'node:os';
import { BASIC_FACE_THRESHOLD } from '@idv/contracts';
import { faceDistance } from '@idv/faces';
import { DEFAULT_IMAGE_LIMITS, ImagePool } from '@idv/images';
import { ProviderRejected } from '../../outcomes.ts';
import type { AdapterInput, AdapterOutput, WorkerConnector } from '../connector.ts';
import { facePair, type ImageRef } from '../shared/documentInputs.ts';
import { decision, inconclusive } from '../shared/normalise.ts';
import { base64Image, outcomeOfImageJob } from '../shared/offlineImages.ts';
import type { Described } from './faceWorker.ts';

type Input = AdapterInput<'basic_face'>;

/** A pair's images are described within this, waiting for a thread included. */
export const FACE_TIMEOUT_MS = 20_000;

export const connector: WorkerConnector<'basic_face'> = {
  type: 'basic_face',
  start: () => createBasicFace(),
};

export interface BasicFace {
  adapter: (input: Input) => Promise<AdapterOutput>;
  close(): Promise<void>;
}

/** An adapter with its own image threads (one per core unless told), kept for the worker's life. */
export function createBasicFace(options: { threads?: number; timeoutMs?: number } = {}): BasicFace {
  const pool = new ImagePool<'describe'>({
    script: new URL('./faceWorker.ts', import.meta.url),
    threads: options.threads ?? availableParallelism(),
    limits: DEFAULT_IMAGE_LIMITS,
    timeoutMs: options.timeoutMs ?? FACE_TIMEOUT_MS,
    // a thread loads the models once (about half a second) before its first pair
    warm: true,
  });
  return {
    adapter: (input) => compare(input, pool),
    close: () => pool.close(),
  };
}

async function compare(input: Input, pool: ImagePool<'describe'>): Promise<AdapterOutput> {
  if (input.kind !== 'face_compare')
    throw new ProviderRejected(`basic_face does not serve ${input.kind}`);
  input.signal.throwIfAborted();
  const { source, target } = facePair(input.document);
  const describe = async (ref: ImageRef, field: string) => {
    try {
      return await pool.run<Described>('describe', imageBytes(ref, field), {
        signal: input.signal,
      });
    } catch (err) {
      throw outcomeOfImageJob(err, field);
    }
  };
  const [selfie, document] = await Promise.all([
    describe(source, 'image1'),
    describe(target, 'image2'),
  ]);
  const threshold = input.config.threshold ?? BASIC_FACE_THRESHOLD;
  const raw = { faces: { image1: selfie.faces, image2: document.faces }, threshold };
  if (!selfie.descriptor || !document.descriptor) {
    const reasons = [
      ...(selfie.descriptor ? [] : ['no_face_in_image1']),
      ...(document.descriptor ? [] : ['no_face_in_image2']),
    ];
    return {
      result: { ...inconclusive(['no_face_detected', ...reasons]), threshold, advisory: true },
      raw,
    };
  }
  const score =
    Math.round(100 * (1 - faceDistance(selfie.descriptor, document.descriptor)) * 100) / 100;
  const result = decision(score >= threshold, ['faces_differ'], { score });
  return { result: { ...result, threshold, advisory: true }, raw: { ...raw, score } };
}

/** The bytes of a base64 image; a URL is refused: basic_face works offline. */
function imageBytes(ref: ImageRef, field: string): Buffer {
  if (!ref.image)
    throw new ProviderRejected(
      `basic_face works offline and cannot fetch a URL: send ${field} as base64`,
    );
  return base64Image(ref.image, field);
}
