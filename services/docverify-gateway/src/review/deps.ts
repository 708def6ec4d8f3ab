// What the review use cases work with, built once in start.ts: the session use cases' stores (a
// resubmission is a session), the recording of runs (a decision completes them) and the service
// key (a decision is certified).
import type { ServiceKey } from '@idv/platform';
import type { SessionDeps } from '../sessions/deps.ts';
import type { RecordDeps } from '../runs/recordRun.ts';

export interface ReviewDeps extends SessionDeps, RecordDeps {
  serviceKey: () => Promise<ServiceKey>;
}

/** The audit log's and the history's name for an operator. */
export const operatorActor = (operator: { username: string }) => `operator:${operator.username}`;
