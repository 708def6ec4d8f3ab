// Who may have a capture check in the gateway's image threads, queued or running: one check per
// session, CAPTURE_CHECKS_PER_COMMUNITY per community, CAPTURE_CHECKS_QUEUED in all. Over a bound a
// check is not queued at all: the upload answers check_unavailable at once (no retake spent), so
// one session or one community cannot line the threads' queue up and make everyone else wait.
// The counts are this replica's own: each gateway process guards its own threads.
import { CommunityShare } from '../verification/communityShare.ts';

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
  private readonly communities: CommunityShare;
  private total = 0;

  constructor(private readonly bounds: CheckBounds) {
    this.communities = new CommunityShare(bounds.perCommunity);
  }

  /** A release to call once the check is done, or why the check may not be queued now. */
  enter(owner: CheckOwner): { release: () => void } | { busy: string } {
    if (this.sessions.has(owner.sessionId))
      return { busy: 'another photo of this session is being checked' };
    if (this.communities.running(owner.communityId) >= this.bounds.perCommunity)
      return { busy: "this service's image checks are all busy" };
    if (this.total >= this.bounds.total) return { busy: 'the image checks are all busy' };
    this.sessions.add(owner.sessionId);
    this.communities.take(owner.communityId);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.sessions.delete(owner.sessionId);
        this.communities.release(owner.communityId);
        this.total -= 1;
      },
    };
  }
}
