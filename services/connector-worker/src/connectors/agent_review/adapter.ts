// agent_review (dl/ppt/idcard_authenticate): people at the review provider decide; protocol in the
// sandbox's routes/review.ts, request in shared/reviewProvider.ts (default path /review/v1/agent).
// A pending review is inconclusive: the outcome is neither yes nor no.
import { plainConnector } from '../connector.ts';
import { extractedFrom } from '../shared/extracted.ts';
import { decision, inconclusive } from '../shared/normalise.ts';
import { expectAnswer } from '../shared/providerCall.ts';
import { reasonsOf, submitForReview } from '../shared/reviewProvider.ts';

export const connector = plainConnector('agent_review', async (input) => {
  const raw = await submitForReview(input, input.config, '/review/v1/agent');
  const answer = expectAnswer(raw, 'review provider', ['decision']);
  const reasons = reasonsOf(answer.reasons);
  if (answer.decision === 'pending')
    return { result: inconclusive(reasons.length ? reasons : ['review_pending']), raw };
  const result = decision(
    answer.decision === 'approved',
    reasons.length ? reasons : ['rejected_by_agent'],
  );
  return { result: { ...result, extracted: extractedFrom(answer.document) }, raw };
});
