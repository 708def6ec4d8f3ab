// document_auth_a; protocol in the sandbox's routes/documentAuthA.ts. Keys airAccessKey /
// airSecretToken (x-access-key / x-secret-token) for authentication (airAPI) and document liveness
// (documentLivenessCheckAPI); faceAPIKey (x-api-key) for face match (faceAPI); each URL defaults to
// <connectorUrl>/air/v1/…. scan_channelResponse limits the DQL fields returned; accountCode and
// document_share_session_enabled are passed through. scan_url, scan_cert, scan_key and
// scan_channelConfiguration configure hosted scan sessions, which /verify does not start: passed
// through untouched (documented, not used on this path).
import type { ConfigOf } from '@idv/contracts';
import { plainConnector, type AdapterInput } from '../connector.ts';
import { documentImages, documentKind, facePair, singleImage } from '../shared/documentInputs.ts';
import { extractedFromDql } from '../shared/extracted.ts';
import { asNumber, asRecord, decision, defined } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';

const what = 'document provider A';
type Input = AdapterInput<'document_auth_a'>;

function airHeaders(config: ConfigOf<'document_auth_a'>) {
  return {
    'x-access-key': config.airAccessKey ?? '',
    'x-secret-token': config.airSecretToken ?? '',
  };
}

async function authenticate(input: Input) {
  const c = input.config;
  const raw = await callProvider(input, what, {
    method: 'POST',
    url: endpoint(input.connectorUrl, c.airAPI, '/air/v1/authenticate'),
    headers: airHeaders(c),
    data: defined({
      documentType: documentKind(input.kind),
      images: documentImages(input.document),
      responseFields: c.scan_channelResponse,
      accountCode: c.accountCode,
      shareSession: c.document_share_session_enabled,
    }),
  });
  const answer = expectAnswer(raw, what, ['authenticationResult']);
  const alerts = Array.isArray(answer.alerts) ? answer.alerts.map(asRecord) : [];
  const checks = Object.fromEntries(alerts.map((a) => [String(a.name), a.result === 'Passed']));
  const failed = alerts.filter((a) => a.result !== 'Passed').map((a) => String(a.name));
  const result =
    answer.authenticationResult === 'Attention'
      ? decision(false, failed, { status: 'inconclusive' })
      : decision(
          answer.authenticationResult === 'Passed',
          failed.length ? failed : ['authentication_failed'],
        );
  return { result: { ...result, checks, extracted: extractedFromDql(answer.fields) }, raw };
}

async function faceMatch(input: Input) {
  const raw = await callProvider(input, what, {
    method: 'POST',
    url: endpoint(input.connectorUrl, input.config.faceAPI, '/air/v1/face-match'),
    headers: { 'x-api-key': input.config.faceAPIKey ?? '' },
    data: facePair(input.document),
  });
  const answer = expectAnswer(raw, what, ['score', 'match']);
  const result = decision(answer.match === true, ['faces_differ'], {
    score: asNumber(answer.score),
  });
  return { result: { ...result, threshold: 50 }, raw };
}

async function documentLiveness(input: Input) {
  const image = singleImage(input.document, 'image');
  const raw = await callProvider(input, what, {
    method: 'POST',
    url: endpoint(
      input.connectorUrl,
      input.config.documentLivenessCheckAPI,
      '/air/v1/document-liveness',
    ),
    headers: airHeaders(input.config),
    data: { image: image.image, imageUrl: image.url },
  });
  const answer = expectAnswer(raw, what, ['livenessScore', 'live']);
  return {
    result: decision(answer.live === true, ['liveness_not_confirmed'], {
      score: asNumber(answer.livenessScore),
    }),
    raw,
  };
}

export const connector = plainConnector('document_auth_a', (input) => {
  if (input.kind === 'face_compare') return faceMatch(input);
  if (input.kind === 'document_liveness') return documentLiveness(input);
  return authenticate(input);
});
