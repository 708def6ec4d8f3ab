// agent_review (dl/ppt/idcard_authenticate): people at the review provider decide; protocol in the
// sandbox's routes/review.ts, request in shared/reviewProvider.ts (default path /review/v1/agent).
// A review decided later (pending with decideAt) is followed up: GET /review/v1/agent/{reviewId}
// polled, or the provider's signed callback (the same body) read. A pending answer without decideAt
// means the agent could not tell: inconclusive, final.
import { plainConnector, type AdapterOutput } from '../connector.ts';
import { extractedFrom } from '../shared/extracted.ts';
import { asString, decision, inconclusive } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';
import { reasonsOf, submitForReview } from '../shared/reviewProvider.ts';

const PATH = '/review/v1/agent';

/** The normalised result of a review answer (submit, poll or callback alike). */
function reviewed(raw: unknown, followUp?: { deadline: number; how: 'poll' | 'callback' }) {
  const answer = expectAnswer(raw, 'review provider', ['decision']);
  const reasons = reasonsOf(answer.reasons);
  const reference = asString(answer.reviewId);
  if (answer.decision === 'pending' && answer.decideAt !== undefined && reference && followUp) {
    const result = { verified: false, status: 'pending' as const, reasons: ['review_pending'] };
    return { result: { ...result, followUp: { reference, ...followUp } }, raw };
  }
  if (answer.decision === 'pending')
    return { result: inconclusive(reasons.length ? reasons : ['review_pending']), raw };
  const result = decision(
    answer.decision === 'approved',
    reasons.length ? reasons : ['rejected_by_agent'],
  );
  return { result: { ...result, extracted: extractedFrom(answer.document) }, raw };
}

/** A follow-up's answer: still pending (the follow-up goes on) or final. */
const followedUp = (raw: unknown): AdapterOutput =>
  reviewed(raw, { deadline: 0, how: 'poll' }) as AdapterOutput;

export const connector = plainConnector(
  'agent_review',
  async (input) => {
    const callbackUrl = input.followUp?.callbackUrl;
    const raw = await submitForReview(input, input.config, PATH, callbackUrl);
    const followUp = input.followUp && {
      deadline: input.followUp.deadline,
      how: callbackUrl ? ('callback' as const) : ('poll' as const),
    };
    return reviewed(raw, followUp) as AdapterOutput;
  },
  {
    poll: async (input) =>
      followedUp(
        await callProvider(input, 'review provider', {
          method: 'GET',
          url: `${endpoint(input.connectorUrl, input.config.url, PATH)}/${encodeURIComponent(input.reference)}`,
          headers: { 'x-api-key': input.config.apiKey ?? '' },
        }),
      ),
    fromCallback: (body) => followedUp(body),
  },
);
