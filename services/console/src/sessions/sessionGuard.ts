// The guard of every /api route: the session of the request's cookie, live (idle under 30 min,
// under 12 h old), its access token refreshed when near its end, and its roles and communities
// read again at the issuer's userinfo once they are a minute old (a demoted or removed operator
// loses what the last ID token granted within a minute); 401 otherwise. The session is left in
// res.locals for the access rule and the handlers.
import { Forbidden, HttpError, Unauthorized, Unavailable } from '@idv/http';
import type { Logger } from '@idv/observability';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as client from 'openid-client';
import { cookieOf, SESSION_COOKIE } from '../login/cookies.ts';
import type { IssuerConfiguration } from '../login/issuer.ts';
import { claimsOf, grantOf, tokensOf } from '../login/tokenSet.ts';
import type { ConsoleSession, SessionStore } from './sessionStore.ts';

/** Refresh when the access token has less than this left. */
const REFRESH_BEFORE_MS = 60_000;
/** Roles and communities are read again at the issuer once they are this old. */
const CLAIMS_FRESH_MS = 60_000;
/** A session's last-seen time is written at most this often. */
const TOUCH_EVERY_MS = 15_000;

export interface SessionGuardDeps {
  sessions: SessionStore;
  issuer: IssuerConfiguration;
  logger: Logger;
}

export function sessionOf(res: Response): ConsoleSession {
  const session = res.locals.consoleSession as ConsoleSession | undefined;
  if (!session) throw new Error('sessionOf before the session guard');
  return session;
}

const loggedOut = () => new Unauthorized('no console session: log in at /auth/login');

/**
 * The issuer said no (a revoked grant or token, an account that is no operator any more, claims
 * the console refuses); not: it was away or failed.
 */
const refusedByIssuer = (err: unknown): boolean =>
  err instanceof Unauthorized ||
  err instanceof Forbidden ||
  ((err instanceof client.ResponseBodyError ||
    err instanceof client.WWWAuthenticateChallengeError) &&
    [400, 401, 403].includes(err.status));

export function sessionGuard(deps: SessionGuardDeps): RequestHandler {
  const running = new Map<string, Promise<void>>();
  const due = (expiresAt: Date) => expiresAt.getTime() - Date.now() < REFRESH_BEFORE_MS;
  const stale = (checkedAt: Date) => Date.now() - checkedAt.getTime() >= CLAIMS_FRESH_MS;

  const refresh = (session: ConsoleSession) =>
    deps.sessions.refreshLocked(session.idHash, due, async (tokens) => {
      if (!tokens.refreshToken) throw loggedOut();
      const answer = await client.refreshTokenGrant(await deps.issuer(), tokens.refreshToken);
      const claims = answer.id_token
        ? { ...claimsOf(answer.claims()!), authTime: session.authTime }
        : undefined;
      return { tokens: tokensOf(answer, tokens.idToken), ...(claims ? { claims } : {}) };
    });

  const recheck = (session: ConsoleSession) =>
    deps.sessions.recheckLocked(session.idHash, stale, async (tokens) =>
      grantOf(await client.fetchUserInfo(await deps.issuer(), tokens.accessToken, session.sub)),
    );

  /** One `step` at a time per session in this process (the row lock covers the others). */
  const once = (
    what: 'refresh the session' | "read the operator's roles",
    session: ConsoleSession,
    step: () => Promise<void>,
  ) => {
    const key = `${what}:${session.idHash}`;
    let pending = running.get(key);
    if (!pending) {
      pending = step().finally(() => running.delete(key));
      running.set(key, pending);
    }
    return pending.catch(async (err: unknown) => {
      // the issuer refused: the session is over; the issuer away: it stays for the next request
      if (!refusedByIssuer(err)) {
        if (err instanceof HttpError) throw err;
        throw new Unavailable(
          `the operators' issuer cannot be reached to ${what}: ${(err as Error).message}`,
        );
      }
      deps.logger.info(
        { reason: (err as Error).message },
        `console session ended: the issuer refused to ${what}`,
      );
      await deps.sessions.endByHash(session.idHash);
      throw loggedOut();
    });
  };

  const load = async (req: Request): Promise<ConsoleSession> => {
    const id = cookieOf(req, SESSION_COOKIE);
    let session = id ? await deps.sessions.find(id) : undefined;
    if (!id || !session) throw loggedOut();
    const refreshDue = due(session.accessExpiresAt);
    const recheckDue = stale(session.claimsCheckedAt);
    if (refreshDue) await once('refresh the session', session, () => refresh(session!));
    if (recheckDue) await once("read the operator's roles", session, () => recheck(session!));
    if (refreshDue || recheckDue) {
      session = await deps.sessions.find(id);
      if (!session) throw loggedOut();
    }
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS)
      await deps.sessions.touch(session.idHash);
    return session;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    load(req).then((session) => {
      res.locals.consoleSession = session;
      next();
    }, next);
  };
}
