// Bearer tokens the sandbox issues, good for the lifetime its answer states (expires_in), as a
// provider's are. Expired ones are forgotten as new ones are issued, so a long run does not keep
// every token it ever gave out.
import { randomUUID } from 'node:crypto';

export class TokenBook {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly prefix: string,
    /** seconds a token lasts; also the expires_in of the answer */
    readonly lifetimeS: number,
    /** the clock tokens expire by (ms since the epoch) */
    private readonly now: () => number = Date.now,
  ) {}

  issue(): string {
    const now = this.now();
    // the oldest token is first in the Map: forget what expired before this one is added
    for (const [token, until] of this.until) {
      if (until > now) break;
      this.until.delete(token);
    }
    const token = `${this.prefix}-${randomUUID()}`;
    this.until.set(token, now + this.lifetimeS * 1000);
    return token;
  }

  /** The token of an `Authorization: Bearer` header, when it was issued here and has not expired. */
  accepts(authorization: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const until = token === undefined ? undefined : this.until.get(token);
    return until !== undefined && until > this.now();
  }
}
