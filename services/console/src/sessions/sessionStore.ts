// console.sessions: one row per logged-in browser, keyed by a hash of the cookie's random id. The
// tokens are sealed under the console's data key, each bound to its session and purpose. What
// changes a session (a token refresh, roles read again) runs with its row locked: one browser's
// parallel requests, on any replica, make one call to the issuer.
import { createHash, randomBytes } from 'node:crypto';
import type { OperatorRole } from '@idv/auth';
import type { Knex } from '@idv/db';
import type { Keyring } from '@idv/platform';

const TABLE = 'console.sessions';
const OWNER = { kind: 'console', id: 'sessions' };

export interface SessionClaims {
  sub: string;
  username: string;
  roles: OperatorRole[];
  communities: string[];
  amr: string[];
  authTime: Date;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  idToken: string;
  accessExpiresAt: Date;
}

export interface ConsoleSession extends SessionClaims {
  idHash: string;
  accessExpiresAt: Date;
  /** when roles and communities were last read at the issuer */
  claimsCheckedAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface Row {
  id_hash: string;
  sub: string;
  username: string;
  roles: OperatorRole[];
  communities: string[];
  amr: string[];
  auth_time: Date;
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  id_token_sealed: string;
  access_expires_at: Date;
  claims_checked_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export const hashSessionId = (id: string): string =>
  createHash('sha256').update(id).digest('base64url');

const context = (idHash: string, what: string) => `console-session:${idHash}:${what}`;

const sessionOf = (row: Row): ConsoleSession => ({
  idHash: row.id_hash,
  sub: row.sub,
  username: row.username,
  roles: row.roles,
  communities: row.communities,
  amr: row.amr,
  authTime: row.auth_time,
  accessExpiresAt: row.access_expires_at,
  claimsCheckedAt: row.claims_checked_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
});

export class SessionStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly limits: { idleMs: number; lifetimeMs: number },
  ) {}

  private async sealed(idHash: string, tokens: SessionTokens) {
    const seal = (value: string, what: string) =>
      this.keys.sealFor(OWNER, value, context(idHash, what));
    return {
      access_token_sealed: await seal(tokens.accessToken, 'access'),
      refresh_token_sealed: tokens.refreshToken ? await seal(tokens.refreshToken, 'refresh') : null,
      id_token_sealed: await seal(tokens.idToken, 'id'),
      access_expires_at: tokens.accessExpiresAt,
    };
  }

  private claimColumns(claims: SessionClaims) {
    return {
      sub: claims.sub,
      username: claims.username,
      roles: JSON.stringify(claims.roles),
      communities: JSON.stringify(claims.communities),
      amr: JSON.stringify(claims.amr),
      auth_time: claims.authTime,
    };
  }

  /** A new session; answers the cookie's id (never stored). */
  async create(claims: SessionClaims, tokens: SessionTokens): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const idHash = hashSessionId(id);
    await this.db(TABLE).insert({
      id_hash: idHash,
      ...this.claimColumns(claims),
      ...(await this.sealed(idHash, tokens)),
      expires_at: new Date(Date.now() + this.limits.lifetimeMs),
    });
    return id;
  }

  /** The live session of a cookie id: not past its lifetime, nor idle too long. */
  async find(id: string): Promise<ConsoleSession | undefined> {
    const row = (await this.db(TABLE)
      .where({ id_hash: hashSessionId(id) })
      .where('expires_at', '>', this.db.fn.now())
      .where('last_seen_at', '>', new Date(Date.now() - this.limits.idleMs))
      .first()) as Row | undefined;
    return row && sessionOf(row);
  }

  /** Marks the session used now (its idle time starts again). */
  async touch(idHash: string): Promise<void> {
    await this.db(TABLE).where({ id_hash: idHash }).update({ last_seen_at: this.db.fn.now() });
  }

  async tokens(idHash: string, trx?: Knex): Promise<SessionTokens | undefined> {
    const row = (await (trx ?? this.db)(TABLE).where({ id_hash: idHash }).first()) as
      Row | undefined;
    if (!row) return undefined;
    const open = (sealed: string, what: string) => this.keys.open(sealed, context(idHash, what));
    return {
      accessToken: await open(row.access_token_sealed, 'access'),
      refreshToken: row.refresh_token_sealed
        ? await open(row.refresh_token_sealed, 'refresh')
        : undefined,
      idToken: await open(row.id_token_sealed, 'id'),
      accessExpiresAt: row.access_expires_at,
    };
  }

  /**
   * Runs `refresh` with the session's row locked, so one refresh token is spent once even when
   * several requests (or replicas) find the access token near its end at the same time.
   */
  async refreshLocked(
    idHash: string,
    due: (accessExpiresAt: Date) => boolean,
    refresh: (tokens: SessionTokens) => Promise<{ tokens: SessionTokens; claims?: SessionClaims }>,
  ): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = (await trx(TABLE)
        .where({ id_hash: idHash })
        .forUpdate()
        .first('access_expires_at')) as Pick<Row, 'access_expires_at'> | undefined;
      if (!row || !due(row.access_expires_at)) return;
      const current = await this.tokens(idHash, trx);
      if (!current) return;
      const next = await refresh(current);
      await trx(TABLE)
        .where({ id_hash: idHash })
        .update({
          ...(await this.sealed(idHash, {
            ...next.tokens,
            refreshToken: next.tokens.refreshToken ?? current.refreshToken,
          })),
          ...(next.claims
            ? { ...this.claimColumns(next.claims), claims_checked_at: this.db.fn.now() }
            : {}),
        });
    });
  }

  /**
   * Runs `recheck` with the session's row locked when its roles were read `due` long ago, and
   * keeps the roles and communities it answers: the requests waiting on the lock find them fresh
   * and ask the issuer nothing.
   */
  async recheckLocked(
    idHash: string,
    due: (claimsCheckedAt: Date) => boolean,
    recheck: (tokens: SessionTokens) => Promise<Pick<SessionClaims, 'roles' | 'communities'>>,
  ): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = (await trx(TABLE)
        .where({ id_hash: idHash })
        .forUpdate()
        .first('claims_checked_at')) as Pick<Row, 'claims_checked_at'> | undefined;
      if (!row || !due(row.claims_checked_at)) return;
      const current = await this.tokens(idHash, trx);
      if (!current) return;
      const grant = await recheck(current);
      await trx(TABLE)
        .where({ id_hash: idHash })
        .update({
          roles: JSON.stringify(grant.roles),
          communities: JSON.stringify(grant.communities),
          claims_checked_at: this.db.fn.now(),
        });
    });
  }

  /** Ends a session; answers its tokens (to revoke at the issuer) when it existed. */
  async end(
    id: string,
  ): Promise<{ session: ConsoleSession; tokens: SessionTokens | undefined } | undefined> {
    const idHash = hashSessionId(id);
    const row = (await this.db(TABLE).where({ id_hash: idHash }).first()) as Row | undefined;
    if (!row) return undefined;
    const tokens = await this.tokens(idHash).catch(() => undefined);
    await this.db(TABLE).where({ id_hash: idHash }).delete();
    return { session: sessionOf(row), tokens };
  }

  async endByHash(idHash: string): Promise<void> {
    await this.db(TABLE).where({ id_hash: idHash }).delete();
  }

  /** Deletes sessions past their lifetime or idle too long; answers how many. */
  async sweep(): Promise<number> {
    return this.db(TABLE)
      .where('expires_at', '<=', this.db.fn.now())
      .orWhere('last_seen_at', '<=', new Date(Date.now() - this.limits.idleMs))
      .delete();
  }
}
