// face_compare_b: one JSON call; protocol in the sandbox's routes/faceMatch.ts. config.url
// overrides <connectorUrl>/facematch/v1/compare; apiKey goes in x-api-key.
import { facePair } from '../shared/documentInputs.ts';
import { asNumber, asString, decision } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';
import { plainConnector } from '../connector.ts';

export const connector = plainConnector('face_compare_b', async (input) => {
  const { source, target } = facePair(input.document);
  const raw = await callProvider(input, 'face match provider', {
    method: 'POST',
    url: endpoint(input.connectorUrl, input.config.url, '/facematch/v1/compare'),
    headers: { 'x-api-key': input.config.apiKey ?? '' },
    data: { source, target },
  });
  const answer = expectAnswer(raw, 'face match provider', ['similarity', 'match']);
  const threshold = asNumber(answer.threshold) ?? 50;
  const reason = asString(answer.reason) ?? 'faces_differ';
  const result = decision(answer.match === true, [reason], {
    score: asNumber(answer.similarity) ?? 0,
  });
  return { result: { ...result, threshold }, raw };
});
