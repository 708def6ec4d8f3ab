// A fair share of a process's in-flight work: at most `perKey` at once per key (a tenant, a
// community), so one key's backlog never holds every slot; TenantShares holds both at once. Used wherever a pool is shared by
// tenants: the gateways' run slots (per tenant and community), the capture checks in flight (a
// gateway's and a capture checker's). The counts are the process's own.
export class KeyedShare {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perKey: number) {}

  /** Takes a slot of `key`'s share; false when its share is in use. */
  take(key: string): boolean {
    const running = this.running(key);
    if (running >= this.perKey) return false;
    this.inFlight.set(key, running + 1);
    return true;
  }

  release(key: string): void {
    const running = this.running(key) - 1;
    if (running > 0) this.inFlight.set(key, running);
    else this.inFlight.delete(key);
  }

  running(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}

/** Whose work a slot counts against. */
export interface ShareOwner {
  tenantId: string;
  communityId: string;
}

export interface ShareBounds {
  /** work of one tenant's communities together */
  perTenant: number;
  /** work of one community */
  perCommunity: number;
}

/**
 * A slot of a tenant's share (all of the tenant's communities together) and of its community's
 * share, or none: a tenant with many communities holds no more than a tenant with one.
 */
export class TenantShares {
  // the same counter, keyed once by tenant and once by community
  private readonly tenants: KeyedShare;
  private readonly communities: KeyedShare;

  constructor(bounds: ShareBounds) {
    this.tenants = new KeyedShare(bounds.perTenant);
    this.communities = new KeyedShare(bounds.perCommunity);
  }

  /** Takes a slot of both shares; false (nothing taken) when either is in use. */
  take(owner: ShareOwner): boolean {
    if (!this.tenants.take(owner.tenantId)) return false;
    if (this.communities.take(owner.communityId)) return true;
    this.tenants.release(owner.tenantId);
    return false;
  }

  release(owner: ShareOwner): void {
    this.tenants.release(owner.tenantId);
    this.communities.release(owner.communityId);
  }

  running(owner: ShareOwner): { tenant: number; community: number } {
    return {
      tenant: this.tenants.running(owner.tenantId),
      community: this.communities.running(owner.communityId),
    };
  }
}
