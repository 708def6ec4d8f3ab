// Who may read a one-time result (a session's, an async or parked run's, a kept /verify result):
// the licence that asked for it, which consumes it by reading. A system licence (operators) sees
// the state but never the result, and consumes nothing; any other licence of the community is
// answered as for an unknown id (404), so ids that travel in events are no oracle.
import type { Licence } from '@idv/platform';

export type ResultCaller = Pick<Licence, 'id' | 'level'>;

/** owner: reads and consumes; observer: the state only; none: not found. */
export type ResultAccess = 'owner' | 'observer' | 'none';

/** `ownerLicenceId` null: a row from before owners were stored (008), open to its community. */
export function resultAccess(ownerLicenceId: string | null, caller: ResultCaller): ResultAccess {
  if (ownerLicenceId === caller.id) return 'owner';
  if (caller.level === 'system') return 'observer';
  return ownerLicenceId === null ? 'owner' : 'none';
}
