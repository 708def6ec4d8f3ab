// identity_data (ssn_verify, person_verify): one JSON call, the protocol is in the sandbox's
// routes/identityData.ts. config.url overrides <connectorUrl>/identity/v1/verify; apiKey goes in x-api-key.
import type { Adapter } from './types.ts';
import { personOf } from './shared/documentInputs.ts';
import { asNumber, asRecord, fieldDecision } from './shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from './shared/providerCall.ts';

export const identityData: Adapter = async (input) => {
  const { config, document } = input;
  const url = endpoint(input.connectorUrl, config.url, '/identity/v1/verify');
  const raw = await callProvider(input, 'identity data provider', {
    method: 'POST',
    url,
    headers: { 'x-api-key': String(config.apiKey ?? '') },
    data: { check: input.kind === 'ssn_verify' ? 'ssn' : 'person', person: personOf(document) },
  });
  const answer = expectAnswer(raw, 'identity data provider', ['found', 'fields']);
  const fields = Object.fromEntries(
    Object.entries(asRecord(answer.fields)).map(([k, v]) => [k, v === true]),
  );
  return { result: fieldDecision(answer.found === true, fields, asNumber(answer.score)), raw };
};
