// Access tokens a provider issues for a while (OAuth client credentials and the like): one per
// account, shared by every job's calls until shortly before it expires, and fetched once when
// many calls need it at the same moment. A new token per job cost a provider round trip on every
// verification (a second, at 1 s latency) and a token a minute per call at the provider.
import { ProviderRejected } from '../../outcomes.ts';
import type { AccountKey } from '../../provider/accounts.ts';
import { RecentlyUsed } from '../../provider/recentlyUsed.ts';

/** What a token endpoint answered: the token, and for how many seconds (when it says). */
export interface IssuedToken {
  token: string;
  expiresInS?: number | undefined;
}

interface Kept {
  token: string;
  /** epoch ms after which it is not used any more */
  until: number;
}

/** A token is given up this long before the provider said it expires (clocks, slow calls). */
const MARGIN_S = 30;
/** Accounts whose tokens are kept; past it the least recently used goes. */
const MAX_ACCOUNTS = 1000;

export class AccessTokens {
  private readonly kept = new RecentlyUsed<Kept>(MAX_ACCOUNTS);
  private readonly fetching = new Map<string, Promise<string>>();

  /**
   * Runs `call` with the account's token, fetched with `fetch` when none is kept. A kept token
   * the provider refuses with 401 (revoked or rotated early) is dropped and the call made once
   * more with a new one. `key`: the job's account (provider/accounts.ts), within it the site the
   * token is for and is sent to, so no token serves another verifier, community, config or URL.
   */
  async use<T>(
    key: AccountKey,
    fetch: () => Promise<IssuedToken>,
    call: (token: string) => Promise<T>,
  ): Promise<T> {
    const kept = this.fresh(key);
    if (kept) {
      try {
        return await call(kept.token);
      } catch (err) {
        if (!(err instanceof ProviderRejected && err.status === 401)) throw err;
        if (this.kept.get(key) === kept) this.kept.delete(key);
      }
    }
    return call(await this.issue(key, fetch));
  }

  private fresh(key: string): Kept | undefined {
    const kept = this.kept.get(key);
    if (!kept || kept.until > Date.now()) return kept;
    this.kept.delete(key);
    return undefined;
  }

  /**
   * One fetch per account at a time: every call waiting for it gets the token it brought, which
   * is kept for later calls only when the provider said how long it lasts.
   */
  private issue(key: string, fetch: () => Promise<IssuedToken>): Promise<string> {
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = fetch().then((issued) => {
        this.keep(key, issued);
        return issued.token;
      });
      this.fetching.set(key, pending);
      const done = () => this.fetching.delete(key);
      pending.then(done, done);
    }
    return pending;
  }

  private keep(key: string, issued: IssuedToken): void {
    const seconds = issued.expiresInS;
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return;
    const lifetime = seconds > 2 * MARGIN_S ? seconds - MARGIN_S : seconds / 2;
    this.kept.set(key, { token: issued.token, until: Date.now() + lifetime * 1000 });
  }
}
