// auto_review (dl/ppt/idcard_authenticate): the review provider decides automatically; protocol in
// the sandbox's routes/review.ts, request in shared/reviewProvider.ts (default path
// /review/v1/auto). A "refer" is inconclusive: the outcome is neither yes nor no.
import { plainConnector } from '../connector.ts';
import { extractedFrom } from '../shared/extracted.ts';
import { asNumber, asRecord, decision, inconclusive } from '../shared/normalise.ts';
import { expectAnswer } from '../shared/providerCall.ts';
import { submitForReview } from '../shared/reviewProvider.ts';

export const connector = plainConnector('auto_review', async (input) => {
  const raw = await submitForReview(input, input.config, '/review/v1/auto');
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
});
