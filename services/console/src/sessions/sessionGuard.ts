// The guard of every /api route: the session of the request's cookie, live (idle under 30 min,
// under 12 h old), its access token refreshed when near its end; 401 otherwise. The session is
// left in res.locals for the access rule and the handlers.
import { HttpError, Unauthorized, Unavailable } from '@idv/http';
import type { Logger } from '@idv/observability';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as client from 'openid-client';
import { cookieOf, SESSION_COOKIE } from '../login/cookies.ts';
import type { IssuerConfiguration } from '../login/issuer.ts';
import { claimsOf, tokensOf } from '../login/tokenSet.ts';
import type { ConsoleSession, SessionStore } from './sessionStore.ts';

/** Refresh when the access token has less than this left. */
const REFRESH_BEFORE_MS = 60_000;
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

export function sessionGuard(deps: SessionGuardDeps): RequestHandler {
  const refreshing = new Map<string, Promise<void>>();
  const due = (expiresAt: Date) => expiresAt.getTime() - Date.now() < REFRESH_BEFORE_MS;

  const refresh = (session: ConsoleSession) =>
    deps.sessions.refreshLocked(session.idHash, due, async (tokens) => {
      if (!tokens.refreshToken) throw loggedOut();
      const answer = await client.refreshTokenGrant(await deps.issuer(), tokens.refreshToken);
      const claims = answer.id_token ? { ...claimsOf(answer.claims()!), authTime: session.authTime } : undefined; // prettier-ignore
      return { tokens: tokensOf(answer, tokens.idToken), ...(claims ? { claims } : {}) };
    });

  const refreshOnce = (session: ConsoleSession): Promise<void> => {
    let running = refreshing.get(session.idHash);
    if (!running) {
      running = refresh(session).finally(() => refreshing.delete(session.idHash));
      refreshing.set(session.idHash, running);
    }
    return running;
  };

  const load = async (req: Request): Promise<ConsoleSession> => {
    const id = cookieOf(req, SESSION_COOKIE);
    let session = id ? await deps.sessions.find(id) : undefined;
    if (!id || !session) throw loggedOut();
    if (due(session.accessExpiresAt)) {
      await refreshOnce(session).catch(async (err: unknown) => {
        // the issuer refused (a revoked grant, an expired refresh token): the session is over;
        // the issuer away: the session stays for the next request
        const refused = err instanceof client.ResponseBodyError || err instanceof Unauthorized;
        if (!refused && err instanceof HttpError) throw err;
        if (!refused) throw new Unavailable(`the operators' issuer cannot refresh the session: ${(err as Error).message}`); // prettier-ignore
        deps.logger.info({ reason: (err as Error).message }, 'console session ended: refresh refused'); // prettier-ignore
        await deps.sessions.endByHash(session!.idHash);
        throw loggedOut();
      });
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
