// Agent reviews decided later, as a review provider with human agents behaves: the submit answers
// 202 pending with a reviewId; GET answers pending until the review's time has come, then the
// decision the fixture calls for; and when the submit gave a callbackUrl, the decision is POSTed
// there once decided, signed with the account's apiKey (the platform's callback scheme v2: the
// signature covers the method and the callback URL's path and query, so it is good for that URL only):
//   x-callback-timestamp: <unix seconds>
//   x-callback-signature: v2=<hex HMAC-SHA256(apiKey, `${timestamp}\nPOST\n${path?query}\n${body}`)>
// (retried three times, 1 s apart, each signed anew, until a 2xx). Reviews live in memory for the
// sandbox's life.
import { createHmac, randomUUID } from 'node:crypto';

/** The final answer of a review, as GET and the callback carry it. */
export type ReviewDecision = Record<string, unknown> & { reviewId: string; decision: string };

interface PendingReview {
  apiKey: string;
  decideAt: number;
  decided: ReviewDecision;
  callbackUrl: string | undefined;
}

const CALLBACK_TRIES = 3;

/** The signature headers of a callback POSTed to `callbackUrl`, as the provider computes them. */
export function reviewCallbackHeaders(
  apiKey: string,
  callbackUrl: string,
  body: string,
  at = Date.now(),
) {
  const timestamp = String(Math.floor(at / 1000));
  const { pathname, search } = new URL(callbackUrl);
  const mac = createHmac('sha256', apiKey)
    .update(`${timestamp}\nPOST\n${pathname}${search}\n${body}`)
    .digest('hex');
  return { 'x-callback-timestamp': timestamp, 'x-callback-signature': `v2=${mac}` };
}

export class PendingReviews {
  private readonly reviews = new Map<string, PendingReview>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Opens a review decided `afterMs` from now; its reviewId. */
  open(
    apiKey: string,
    afterMs: number,
    decided: Omit<ReviewDecision, 'reviewId'>,
    callbackUrl: string | undefined,
  ): { reviewId: string; decideAt: number } {
    const reviewId = randomUUID();
    const decideAt = Date.now() + afterMs;
    this.reviews.set(reviewId, {
      apiKey,
      decideAt,
      decided: { ...decided, reviewId } as ReviewDecision,
      callbackUrl,
    });
    if (callbackUrl) this.later(afterMs, () => this.callBack(reviewId, 1));
    return { reviewId, decideAt };
  }

  /** The review as its submitter sees it now; undefined for an unknown id or another account. */
  read(reviewId: string, apiKey: string): ReviewDecision | undefined {
    const review = this.reviews.get(reviewId);
    if (!review || review.apiKey !== apiKey) return undefined;
    if (Date.now() < review.decideAt)
      return { reviewId, decision: 'pending', reasons: [], decideAt: review.decideAt };
    return review.decided;
  }

  /** No callback leaves after this, not even a retry of one in flight. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(ms: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void work();
    }, ms);
    // a sandbox stopped in a test leaves no timer holding the process
    timer.unref();
    this.timers.add(timer);
  }

  private async callBack(reviewId: string, attempt: number): Promise<void> {
    const review = this.reviews.get(reviewId);
    if (!review?.callbackUrl) return;
    const body = JSON.stringify(review.decided);
    const delivered = await fetch(review.callbackUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...reviewCallbackHeaders(review.apiKey, review.callbackUrl, body),
      },
      body,
      signal: AbortSignal.timeout(5000),
    }).then(
      (res) => res.ok,
      () => false,
    );
    if (!delivered && attempt < CALLBACK_TRIES)
      this.later(1000, () => this.callBack(reviewId, attempt + 1));
  }
}
