// liveness (face_liveness, document_liveness); protocol in the sandbox's routes/liveness.ts.
// config.url / documentLivenessCheckAPI override <connectorUrl>/liveness/v1/{face,document};
// apiKey / documentApiKey go in x-api-key. Calibration: the document's metaHeaders, else config,
// else REGULAR.
import type { ConfigOf } from '@idv/contracts';
import { plainConnector } from '../connector.ts';
import { singleImage } from '../shared/documentInputs.ts';
import { asNumber, asRecord, asString, decision } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';

type Calibration = NonNullable<ConfigOf<'liveness'>['calibration']>;
const CALIBRATIONS: readonly Calibration[] = ['SOFT', 'REGULAR', 'HARDENED'];

function calibrationOf(
  document: Record<string, unknown>,
  config: ConfigOf<'liveness'>,
): Calibration {
  const asked = asString(asRecord(document.metaHeaders).calibration) ?? config.calibration;
  return CALIBRATIONS.find((c) => c === asked) ?? 'REGULAR';
}

export const connector = plainConnector('liveness', async (input) => {
  const { config, document } = input;
  const face = input.kind === 'face_liveness';
  const image = singleImage(document, face ? 'liveId' : 'image');
  const calibration = calibrationOf(document, config);
  const meta = asRecord(document.metaHeaders);
  const raw = await callProvider(input, 'liveness provider', {
    method: 'POST',
    url: face
      ? endpoint(input.connectorUrl, config.url, '/liveness/v1/face')
      : endpoint(input.connectorUrl, config.documentLivenessCheckAPI, '/liveness/v1/document'),
    headers: { 'x-api-key': (face ? config.apiKey : config.documentApiKey) ?? '' },
    data: face
      ? {
          image: image.image,
          imageUrl: image.url,
          calibration,
          purpose: document.purpose,
          operatingSystem: meta.operatingSystem,
        }
      : { image: image.image, imageUrl: image.url },
  });
  const answer = expectAnswer(raw, 'liveness provider', ['score', 'live']);
  const score = (asNumber(answer.score) ?? 0) * 100;
  const result = decision(answer.live === true, ['liveness_not_confirmed'], { score });
  return { result: face ? { ...result, calibration } : result, raw };
});
