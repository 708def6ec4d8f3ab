// people_search (person_verify, ssn_verify); protocol in the sandbox's routes/peopleSearch.ts.
// HTTP Basic apName:apPassword. ssn_verify uses verifyUrl + verifyType, person_verify uses
// personSearchUrl + personSearchType; either falls back to the general url + searchType, and then
// to <connectorUrl>/people/v1/{verify,person-search}. The best match decides.
import { plainConnector } from '../connector.ts';
import { personOf } from '../shared/documentInputs.ts';
import { asNumber, asRecord, fieldDecision } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';

export const connector = plainConnector('people_search', async (input) => {
  const c = input.config;
  const ssn = input.kind === 'ssn_verify';
  const specificUrl = (ssn ? c.verifyUrl : c.personSearchUrl) || undefined;
  const general = !specificUrl && c.url ? c.url : undefined;
  const url =
    specificUrl ??
    general ??
    endpoint(input.connectorUrl, undefined, ssn ? '/people/v1/verify' : '/people/v1/person-search');
  const typeField = general ? 'searchType' : ssn ? 'verifyType' : 'personSearchType';
  const typeValue =
    (general ? c.searchType : ssn ? c.verifyType : c.personSearchType) || (ssn ? 'ssn' : 'person');
  const raw = await callProvider(input, 'people search provider', {
    method: 'POST',
    url,
    auth: { username: c.apName ?? '', password: c.apPassword ?? '' },
    data: { [typeField]: typeValue, person: personOf(input.document) },
  });
  const answer = expectAnswer(raw, 'people search provider', ['matches']);
  const best = Array.isArray(answer.matches) ? asRecord(answer.matches[0]) : {};
  const fields = Object.fromEntries(
    Object.entries(asRecord(best.fields)).map(([k, v]) => [k, v === true]),
  );
  return { result: fieldDecision(Object.keys(best).length > 0, fields, asNumber(best.score)), raw };
});
