// face_compare_a speaks a face detect-and-verify cloud API: detect each image (octet-stream bytes or
// JSON {url}) for a faceId, then verify faceId1/faceId2 -> {isIdentical, confidence}; identical at
// >= 0.5. Key in Ocp-Apim-Subscription-Key. `accounts` are tried in order: an account that fails or
// whose key is refused hands over to the next; retryCount adds passes over the list. The detect
// parameters (returnFaceId, returnFaceLandmarks, returnFaceAttributes, detectionModel,
// recognitionModel, faceIdTimeToLive) go as query parameters as configured.
import type { ConfigOf } from '@idv/contracts';
import { ProviderRejected, ProviderUnavailable, Refused } from '../../outcomes.ts';
import { plainConnector, type AdapterInput } from '../connector.ts';
import { facePair, type ImageRef } from '../shared/documentInputs.ts';
import { asNumber, asString, decision, defined, inconclusive } from '../shared/normalise.ts';
import { callProvider, expectAnswer } from '../shared/providerCall.ts';

type Config = ConfigOf<'face_compare_a'>;
type Account = NonNullable<Config['accounts']>[number];
type Input = AdapterInput<'face_compare_a'>;

function detectUrl(base: string): string {
  return /\/detect\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/face/v1.0/detect`;
}

function detectParams(config: Config): Record<string, string | number | boolean> {
  return defined({
    returnFaceId: config.returnFaceId ?? true,
    returnFaceLandmarks: config.returnFaceLandmarks,
    returnFaceAttributes: config.returnFaceAttributes,
    detectionModel: config.detectionModel,
    recognitionModel: config.recognitionModel,
    faceIdTimeToLive: config.faceIdTimeToLive,
  });
}

async function detect(input: Input, account: Account, image: ImageRef): Promise<unknown> {
  const bytes = image.image ? Buffer.from(image.image, 'base64') : undefined;
  return callProvider(input, 'face API detect', {
    method: 'POST',
    url: detectUrl(account.url),
    params: detectParams(input.config),
    headers: {
      'Ocp-Apim-Subscription-Key': account.apiKey,
      'Content-Type': bytes ? 'application/octet-stream' : 'application/json',
    },
    data: bytes ?? { url: image.url },
  });
}

async function compareWith(input: Input, account: Account) {
  const { source, target } = facePair(input.document);
  // the two detections are independent: one provider latency for both, not two
  const detected = await Promise.all([
    detect(input, account, source),
    detect(input, account, target),
  ]);
  if (!detected.every(Array.isArray))
    throw new ProviderUnavailable('provider_malformed', 'face API detect answered no list');
  const faceIds = detected.map((faces) =>
    asString((faces as Record<string, unknown>[])[0]?.faceId),
  );
  if (detected.some((faces) => (faces as unknown[]).length === 0)) {
    return { result: decision(false, ['no_face_detected'], { score: 0 }), raw: { detected } };
  }
  const [faceId1, faceId2] = faceIds;
  if (!faceId1 || !faceId2)
    return { result: inconclusive(['face_id_not_returned']), raw: { detected } };
  const verified = await callProvider(input, 'face API verify', {
    method: 'POST',
    url: account.urlVerify,
    headers: { 'Ocp-Apim-Subscription-Key': account.apiKey },
    data: { faceId1, faceId2 },
  });
  const answer = expectAnswer(verified, 'face API verify', ['isIdentical', 'confidence']);
  const score = (asNumber(answer.confidence) ?? 0) * 100;
  const result = decision(answer.isIdentical === true, ['faces_differ'], { score });
  return { result: { ...result, threshold: 50 }, raw: { detected, verify: verified } };
}

/** A refused key (401/403) or quota (429 is already a failure) is the account's problem: next one. */
const accountTrouble = (err: unknown) =>
  err instanceof ProviderUnavailable ||
  (err instanceof ProviderRejected && (err.status === 401 || err.status === 403));

export const connector = plainConnector('face_compare_a', async (input) => {
  const accounts = input.config.accounts ?? [];
  if (accounts.length === 0)
    throw new Refused('invalid_config', 'face_compare_a needs config.accounts');
  const attempts = accounts.length * (1 + (input.config.retryCount ?? 0));
  let last: unknown;
  for (let i = 0; i < attempts && !input.signal.aborted; i += 1) {
    try {
      return await compareWith(input, accounts[i % accounts.length]!);
    } catch (err) {
      if (!accountTrouble(err)) throw err;
      last = err;
    }
  }
  throw last ?? new ProviderUnavailable('provider_timeout', 'face API call aborted');
});
