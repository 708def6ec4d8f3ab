// The review hold is bounded: a case still undecided REVIEW_HOLD_HOURS after it opened expires. In
// one transaction per case its held runs fail (review_hold_expired: their sessions fail, an async
// caller is told by E_IDV_VERIFICATION_COMPLETED), the images it held are dropped whatever the
// retention, and its sessions never submitted are cancelled. Every replica's session sweep runs it.
import type { EventEnvelope } from '@idv/contracts';
import { endRunFailed } from '../runs/recordRun.ts';
import type { ReviewDeps } from './deps.ts';
import { cancelResubmissions } from './resubmission.ts';

export const HOLD_EXPIRED = 'review_hold_expired';

/** Expires up to `limit` cases past their hold; how many it expired. */
export async function expireHeldCases(deps: ReviewDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  let expired = 0;
  for (const kase of await deps.reviews.overHold(now, limit)) {
    const owed = await deps.reviews.transaction(async (trx) => {
      const line = { at: now, actor: 'system', action: 'expired' };
      if (!(await deps.reviews.close(trx, kase, 'expired', line))) return undefined;
      const events: EventEnvelope[] = await cancelResubmissions(deps, trx, kase);
      for (const id of await deps.reviews.heldRuns(trx, kase)) {
        const run = await deps.runs.get(id);
        if (!run) continue;
        events.push(
          ...((await endRunFailed(deps, run, HOLD_EXPIRED, ['review'], {
            trx,
            dropImages: true,
          })) ?? []),
        );
      }
      return events;
    });
    if (!owed) continue;
    expired += 1;
    void deps.outbox.flush(owed);
  }
  return expired;
}
