// Who may have a capture check in flight, queued or running: one check per session, a share per
// tenant (all of its communities together) and per community, and `total` in all. Over a bound a
// check is not queued at all: the upload answers check_unavailable at once (no retake spent), so
// one session, community or tenant cannot line a queue up and make everyone else wait. Both sides
// hold one: a gateway over what it has sent and waits for (CAPTURE_CHECKS_PER_TENANT,
// CAPTURE_CHECKS_PER_COMMUNITY, CAPTURE_CHECKS_QUEUED), a capture checker over what it has taken
// from the shared queue (its threads). The counts are each process's own.
// A capture checker lets a few checks over their tenant's share wait for it (`waiting`, admit): a
// tenant's second photo waits for its first rather than be refused, while other tenants' checks,
// within their shares, go ahead of it.
import { KeyedShare, TenantShares } from '@idv/platform/fairShare';

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
  /** checks of one tenant that may wait for its share (admit); 0: none, over a share is busy */
  waiting?: number;
}

type Entry = { release: () => void } | { busy: string; share?: true };

export class CheckAdmission {
  private readonly sessions = new Set<string>();
  private readonly shares: TenantShares;
  private readonly waiters: KeyedShare;
  private wakers: (() => void)[] = [];
  private total = 0;

  constructor(private readonly bounds: CheckBounds) {
    this.shares = new TenantShares(bounds);
    this.waiters = new KeyedShare(bounds.waiting ?? 0);
  }

  /**
   * As enter, but a check over its tenant's or community's share waits for it until `until`
   * (epoch ms), if fewer than `waiting` of its tenant wait already; past `until`, busy.
   */
  async admit(owner: CheckOwner, until: number): Promise<Entry> {
    const tenant = owner.tenantId ?? owner.communityId;
    let entry = this.enter(owner);
    if (!('share' in entry) || !this.waiters.take(tenant)) return entry;
    try {
      while ('share' in entry && Date.now() < until) {
        await this.nextRelease(until);
        entry = this.enter(owner);
      }
      return entry;
    } finally {
      this.waiters.release(tenant);
    }
  }

  /** A release to call once the check is done, or why the check may not be queued now. */
  enter(owner: CheckOwner): Entry {
    if (this.sessions.has(owner.sessionId))
      return { busy: 'another photo of this session is being checked' };
    if (this.total >= this.bounds.total) return { busy: 'the image checks are all busy' };
    const shareOwner = {
      tenantId: owner.tenantId ?? owner.communityId,
      communityId: owner.communityId,
    };
    if (!this.shares.take(shareOwner))
      return { busy: "this service's image checks are all busy", share: true };
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
        const woken = this.wakers;
        this.wakers = [];
        for (const wake of woken) wake();
      },
    };
  }

  /** Resolves at the next release, or at `until`. */
  private nextRelease(until: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, until - Date.now()));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.push(done);
    });
  }
}
