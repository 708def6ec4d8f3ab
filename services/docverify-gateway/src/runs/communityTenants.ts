// The tenant of a community, for the runs' fair share: a community never changes tenant, so the
// answer is kept (a bounded map) and the database is asked once per community.
import type { TenantStore } from '@idv/platform';

const CAPACITY = 10_000;

export class CommunityTenants {
  private readonly known = new Map<string, string>();

  constructor(private readonly tenants: Pick<TenantStore, 'findCommunityById'>) {}

  /** The tenant id; a community no longer known counts as a tenant of its own. */
  async tenantOf(communityId: string): Promise<string> {
    const known = this.known.get(communityId);
    if (known) return known;
    const community = await this.tenants.findCommunityById(communityId);
    if (!community) return communityId;
    if (this.known.size >= CAPACITY) this.known.clear();
    this.known.set(communityId, community.tenantId);
    return community.tenantId;
  }
}
