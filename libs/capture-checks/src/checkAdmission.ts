// Who may have a capture check in flight, queued or running: one check per session, a share per
// tenant (all of its communities together) and per community, and `total` in all. Over a bound a
// check is not queued at all: the upload answers check_unavailable at once (no retake spent), so
// one session, community or tenant cannot line a queue up and make everyone else wait. Both sides
// hold one: a gateway over what it has sent and waits for (CAPTURE_CHECKS_PER_TENANT,
// CAPTURE_CHECKS_PER_COMMUNITY, CAPTURE_CHECKS_QUEUED), a capture checker over what it has taken
// from the shared queue (its threads). The counts are each process's own.
import { TenantShares } from '@idv/platform/fairShare';

export interface CheckOwner {
  sessionId: string;
  communityId: string;
  /** absent: the community counts as a tenant of its own */
  tenantId?: string;
}

export interface CheckBounds {
  perTenant: number;
  perCommunity: number;
  total: number;
}

export class CheckAdmission {
  private readonly sessions = new Set<string>();
  private readonly shares: TenantShares;
  private total = 0;

  constructor(private readonly bounds: CheckBounds) {
    this.shares = new TenantShares(bounds);
  }

  /** A release to call once the check is done, or why the check may not be queued now. */
  enter(owner: CheckOwner): { release: () => void } | { busy: string } {
    if (this.sessions.has(owner.sessionId))
      return { busy: 'another photo of this session is being checked' };
    if (this.total >= this.bounds.total) return { busy: 'the image checks are all busy' };
    const shareOwner = { tenantId: owner.tenantId ?? owner.communityId, communityId: owner.communityId }; // prettier-ignore
    if (!this.shares.take(shareOwner)) return { busy: "this service's image checks are all busy" };
    this.sessions.add(owner.sessionId);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.sessions.delete(owner.sessionId);
        this.shares.release(shareOwner);
        this.total -= 1;
      },
    };
  }
}
