// identity_data (ssn_verify, person_verify): one JSON call, the protocol is in the sandbox's
// routes/identityData.ts. config.url overrides <connectorUrl>/identity/v1/verify; apiKey goes in
// x-api-key.
import { personOf } from '../shared/documentInputs.ts';
import { asNumber, asRecord, fieldDecision } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';
import { plainConnector } from '../connector.ts';

export const connector = plainConnector('identity_data', async (input) => {
  const { config, document } = input;
  const raw = await callProvider(input, 'identity data provider', {
    method: 'POST',
    url: endpoint(input.connectorUrl, config.url, '/identity/v1/verify'),
    headers: { 'x-api-key': config.apiKey ?? '' },
    data: { check: input.kind === 'ssn_verify' ? 'ssn' : 'person', person: personOf(document) },
  });
  const answer = expectAnswer(raw, 'identity data provider', ['found', 'fields']);
  const fields = Object.fromEntries(
    Object.entries(asRecord(answer.fields)).map(([k, v]) => [k, v === true]),
  );
  return { result: fieldDecision(answer.found === true, fields, asNumber(answer.score)), raw };
});
