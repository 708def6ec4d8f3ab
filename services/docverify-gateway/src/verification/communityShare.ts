// Fair share of one gateway's run slots: at most `perCommunity` runs of one community at once, so
// one community's backlog (or its verifier that never answers) never holds every slot.

/** RUNS_PER_COMMUNITY, 0 meaning a quarter of the gateway's slots (at least one). */
export function perCommunityShare(slots: number, configured: number): number {
  return configured > 0 ? configured : Math.max(1, Math.floor(slots / 4));
}

export class CommunityShare {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perCommunity: number) {}

  /** Takes a slot of `communityId`'s share; false when its share is in use. */
  take(communityId: string): boolean {
    const running = this.running(communityId);
    if (running >= this.perCommunity) return false;
    this.inFlight.set(communityId, running + 1);
    return true;
  }

  release(communityId: string): void {
    const running = this.running(communityId) - 1;
    if (running > 0) this.inFlight.set(communityId, running);
    else this.inFlight.delete(communityId);
  }

  running(communityId: string): number {
    return this.inFlight.get(communityId) ?? 0;
  }
}
