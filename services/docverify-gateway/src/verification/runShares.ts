// Fair share of one gateway's run slots per tenant and per community: a run takes a slot of its
// tenant's share (all of the tenant's communities together) and of its community's share, or none,
// so a tenant with many communities holds no more slots than a tenant with one.
import { CommunityShare } from './communityShare.ts';

/** Who a run's slot counts against. */
export interface RunOwner {
  tenantId: string;
  communityId: string;
}

export interface ShareBounds {
  /** RUNS_PER_TENANT: runs of one tenant's communities together */
  perTenant: number;
  /** RUNS_PER_COMMUNITY: runs of one community */
  perCommunity: number;
}

export class RunShares {
  // the same counter, keyed once by tenant and once by community
  private readonly tenants: CommunityShare;
  private readonly communities: CommunityShare;

  constructor(bounds: ShareBounds) {
    this.tenants = new CommunityShare(bounds.perTenant);
    this.communities = new CommunityShare(bounds.perCommunity);
  }

  /** Takes a slot of both shares; false (nothing taken) when either is in use. */
  take(owner: RunOwner): boolean {
    if (!this.tenants.take(owner.tenantId)) return false;
    if (this.communities.take(owner.communityId)) return true;
    this.tenants.release(owner.tenantId);
    return false;
  }

  release(owner: RunOwner): void {
    this.tenants.release(owner.tenantId);
    this.communities.release(owner.communityId);
  }

  running(owner: RunOwner): { tenant: number; community: number } {
    return {
      tenant: this.tenants.running(owner.tenantId),
      community: this.communities.running(owner.communityId),
    };
  }
}
