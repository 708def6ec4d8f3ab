// agent_review and auto_review (dl/ppt/idcard_authenticate); protocols in the sandbox's
// routes/review.ts. config.url overrides <connectorUrl>/review/v1/{agent,auto}; apiKey in x-api-key.
// A pending agent review or a "refer" is inconclusive: the outcome is neither yes nor no.
import type { Adapter, AdapterInput } from './types.ts';
import { documentImages, documentKind } from './shared/documentInputs.ts';
import { extractedFrom } from './shared/extracted.ts';
import { asNumber, asRecord, decision, inconclusive } from './shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from './shared/providerCall.ts';

function submit(input: AdapterInput, path: string) {
  return callProvider(input, 'review provider', {
    method: 'POST',
    url: endpoint(input.connectorUrl, input.config.url, path),
    headers: { 'x-api-key': String(input.config.apiKey ?? '') },
    data: { documentType: documentKind(input.kind), images: documentImages(input.document) },
  });
}

const reasonsOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

export const agentReview: Adapter = async (input) => {
  const raw = await submit(input, '/review/v1/agent');
  const answer = expectAnswer(raw, 'review provider', ['decision']);
  const reasons = reasonsOf(answer.reasons);
  if (answer.decision === 'pending')
    return { result: inconclusive(reasons.length ? reasons : ['review_pending']), raw };
  const result = decision(
    answer.decision === 'approved',
    reasons.length ? reasons : ['rejected_by_agent'],
  );
  return { result: { ...result, extracted: extractedFrom(answer.document) }, raw };
};

export const autoReview: Adapter = async (input) => {
  const raw = await submit(input, '/review/v1/auto');
  const answer = expectAnswer(raw, 'review provider', ['decision', 'score']);
  const checks = Object.fromEntries(
    Object.entries(asRecord(answer.checks)).map(([k, v]) => [k, v === true]),
  );
  const failed = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => `${name}_failed`);
  const score = asNumber(answer.score);
  if (answer.decision === 'refer')
    return { result: { ...inconclusive(['referred']), checks }, raw };
  const result = decision(answer.decision === 'pass', failed.length ? failed : ['failed'], {
    score,
  });
  return { result: { ...result, checks, extracted: extractedFrom(answer.document) }, raw };
};
