// Why a callback was not made (its webhook's breaker is open, or a slot it needs is taken: its
// webhook's, its tenant's share, its community's share of the receiver's origin, or the origin's):
// the delivery goes back to the table for later without counting an attempt.
export type BusyReason =
  'breaker_open' | 'webhook_busy' | 'tenant_busy' | 'community_busy' | 'origin_busy';

export class TargetBusy extends Error {
  override name = 'TargetBusy';
  constructor(
    message: string,
    /** when to look at the delivery again */
    readonly pauseMs: number,
    readonly reason: BusyReason = 'webhook_busy',
  ) {
    super(message);
  }
}
