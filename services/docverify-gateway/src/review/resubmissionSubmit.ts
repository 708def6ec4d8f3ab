// The person submits a resubmission's captures (capture/captureActions.ts): in the transaction that
// submits the session, its case is locked first (case, then session: the order decisions, the hold's
// expiry and erasure take too) and takes the captures (reviewSteps.ts
// resubmissionSubmittedStep): a case waiting for them as it is; one a reviewer claimed while it
// waited gives the claim up, a history line by system (the new captures win, and their run brings
// the case back open); one that moved on refuses them with a 409.
import type { Knex } from '@idv/db';
import { ConflictError } from '@idv/errors';
import { resubmissionSubmittedStep } from './reviewSteps.ts';
import type { SessionDeps } from '../sessions/deps.ts';

export async function submitResubmission<T>(
  deps: Pick<SessionDeps, 'reviews' | 'clock'>,
  caseId: string,
  submit: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return deps.reviews.transaction(async (trx) => {
    const kase = await deps.reviews.lock(trx, caseId);
    if (!kase) throw new ConflictError('these captures are no longer awaited: the case is gone');
    const step = resubmissionSubmittedStep(kase);
    if (step) await deps.reviews.apply(trx, kase, step, { at: deps.clock.now(), actor: 'system' });
    return submit(trx);
  });
}
