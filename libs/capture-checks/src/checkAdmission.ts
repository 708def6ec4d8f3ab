// Who may have a capture check in flight, queued or running: one check per session, `perCommunity`
// per community, `total` in all. Over a bound a check is not queued at all: the upload answers
// check_unavailable at once (no retake spent), so one session or one community cannot line a queue
// up and make everyone else wait. Both sides hold one: a gateway over what it has sent and waits
// for (CAPTURE_CHECKS_PER_COMMUNITY, CAPTURE_CHECKS_QUEUED), a capture-check worker over what it
// has taken from the shared queue (its threads). The counts are each process's own.

export interface CheckOwner {
  sessionId: string;
  communityId: string;
}

export interface CheckBounds {
  perCommunity: number;
  total: number;
}

export class CheckAdmission {
  private readonly sessions = new Set<string>();
  private readonly communities = new Map<string, number>();
  private total = 0;

  constructor(private readonly bounds: CheckBounds) {}

  /** A release to call once the check is done, or why the check may not be queued now. */
  enter(owner: CheckOwner): { release: () => void } | { busy: string } {
    if (this.sessions.has(owner.sessionId))
      return { busy: 'another photo of this session is being checked' };
    const ofCommunity = this.communities.get(owner.communityId) ?? 0;
    if (ofCommunity >= this.bounds.perCommunity)
      return { busy: "this service's image checks are all busy" };
    if (this.total >= this.bounds.total) return { busy: 'the image checks are all busy' };
    this.sessions.add(owner.sessionId);
    this.communities.set(owner.communityId, ofCommunity + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.sessions.delete(owner.sessionId);
        const left = (this.communities.get(owner.communityId) ?? 1) - 1;
        if (left > 0) this.communities.set(owner.communityId, left);
        else this.communities.delete(owner.communityId);
        this.total -= 1;
      },
    };
  }
}
