// Password checks (scrypt, tens of milliseconds on one of libuv's four threads) bounded per
// community: one community's flood of logins waits behind its own, and the others' logins keep
// a thread. A community with too many waiting is answered 503 at once.
import { Unavailable } from '@idv/http';

export class PasswordChecks {
  private readonly communities = new Map<string, { running: number; waiting: (() => void)[] }>();

  /** perCommunity: checks of one community at once; queue: how many more may wait. */
  constructor(
    private readonly perCommunity = 2,
    private readonly queue = 64,
  ) {}

  async run<T>(communityId: string, check: () => Promise<T>): Promise<T> {
    let slot = this.communities.get(communityId);
    if (!slot) this.communities.set(communityId, (slot = { running: 0, waiting: [] }));
    if (slot.running < this.perCommunity) slot.running++;
    else if (slot.waiting.length >= this.queue)
      throw new Unavailable('too many sign-ins at once in this community; try again shortly');
    // a check that ends hands its place to the first waiting, so none can slip in between
    else await new Promise<void>((resolve) => slot.waiting.push(resolve));
    try {
      return await check();
    } finally {
      const next = slot.waiting.shift();
      if (next) next();
      else if (--slot.running === 0) this.communities.delete(communityId);
    }
  }
}
