// How a case's step lands: one transaction for the step and everything it carries along, tried
// again when PostgreSQL picks it as a deadlock's victim (an erasure or a run's end locking the same
// rows in another order), a 409 when another step landed first, the events published once
// committed. And the answer every step gives: the case's state after it.
import type { EventEnvelope, Resubmission, ReviewStepAnswer } from '@idv/contracts';
import { retryOnDeadlock, type Knex } from '@idv/db';
import { ConflictError } from '@idv/errors';
import type { ReviewCaseRecord } from './reviewCaseStore.ts';
import type { ReviewDeps } from './deps.ts';

/**
 * Runs `work` in a transaction: it answers undefined when its conditional step found the case
 * changed (409), and pushes the events it owes into `owed`.
 */
export async function landStep<T>(
  deps: Pick<ReviewDeps, 'reviews' | 'outbox'>,
  work: (trx: Knex.Transaction, owed: EventEnvelope[]) => Promise<T | undefined>,
): Promise<T> {
  return retryOnDeadlock(async () => {
    const owed: EventEnvelope[] = [];
    const answer = await deps.reviews.transaction((trx) => work(trx, owed));
    if (answer === undefined)
      throw new ConflictError(
        'the case changed meanwhile (another step landed first): read it again',
      );
    void deps.outbox.flush(owed);
    return answer;
  });
}

export function stepAnswer(kase: ReviewCaseRecord, resubmission?: Resubmission): ReviewStepAnswer {
  return {
    caseId: kase.id,
    state: kase.state,
    assignee: kase.assignee,
    outcome: kase.outcome,
    ...(resubmission ? { resubmission } : {}),
  };
}
