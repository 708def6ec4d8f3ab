// document_auth_c; protocol in the sandbox's routes/documentAuthC.ts. Every config member is
// required: license (x-license), clientId / clientSecret (HTTP Basic), verifierUrlV2 asked first and
// verifierUrl (version 1) when V2 answers 404, document_share_session_enabled passed as shareSession.
// connectorUrl is not used: this provider's URLs are always configured.
import { ProviderRejected } from '../../outcomes.ts';
import { plainConnector, type AdapterInput } from '../connector.ts';
import { documentImages, documentKind } from '../shared/documentInputs.ts';
import { extractedFrom } from '../shared/extracted.ts';
import { asNumber, asRecord, decision, inconclusive } from '../shared/normalise.ts';
import { callProvider, expectAnswer } from '../shared/providerCall.ts';

const what = 'document provider C';

function request(input: AdapterInput<'document_auth_c'>, url: string) {
  const c = input.config;
  return callProvider(input, what, {
    method: 'POST',
    url,
    headers: { 'x-license': c.license },
    auth: { username: c.clientId, password: c.clientSecret },
    data: {
      documentType: documentKind(input.kind),
      images: documentImages(input.document),
      shareSession: c.document_share_session_enabled,
    },
  });
}

export const connector = plainConnector('document_auth_c', async (input) => {
  try {
    const raw = await request(input, input.config.verifierUrlV2);
    const answer = expectAnswer(raw, what, ['verdict']);
    const extracted = extractedFrom(answer.data);
    if (answer.verdict === 'UNKNOWN')
      return { result: { ...inconclusive(['unreadable']), extracted }, raw };
    const reason = answer.verdict === 'EXPIRED' ? 'document_expired' : 'document_not_authentic';
    const score = (asNumber(answer.confidence) ?? 0) * 100;
    return {
      result: { ...decision(answer.verdict === 'AUTHENTIC', [reason], { score }), extracted },
      raw,
    };
  } catch (err) {
    if (!(err instanceof ProviderRejected && err.status === 404)) throw err;
  }
  const raw = await request(input, input.config.verifierUrl);
  const answer = expectAnswer(raw, what, ['result']);
  const extracted = extractedFrom(asRecord(answer.data));
  if (answer.result === 'unknown')
    return { result: { ...inconclusive(['unreadable']), extracted }, raw };
  return {
    result: { ...decision(answer.result === 'pass', ['document_not_authentic']), extracted },
    raw,
  };
});
