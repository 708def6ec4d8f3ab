// Applies a route's access rule to the session's claims: a role of the rule (403), the community
// the request names in its path or its `community` query covered by the operator (403), and a
// recent login for sensitive actions (401 `reauthenticate`: the web app sends the operator through
// the issuer's login again and back).
import { operatorCovers } from '@idv/auth';
import { BadRequest, Forbidden, HttpError } from '@idv/http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sessionOf } from '../sessions/sessionGuard.ts';
import type { ConsoleSession } from '../sessions/sessionStore.ts';
import { RECENT_LOGIN_MS, type RouteAccess } from './routeAccess.ts';

export class Reauthenticate extends HttpError {
  constructor() {
    super(401, 'reauthenticate', 'this action needs a login of the last 5 minutes: log in again', {
      login: '/auth/login?fresh=1',
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The community a request names: its :communityId, else its ?community (a UUID, else 400). */
export function communityOfRequest(req: Request): string | undefined {
  const fromPath = req.params.communityId;
  const named = typeof fromPath === 'string' ? fromPath : req.query.community;
  if (named === undefined || named === '') return undefined;
  if (typeof named !== 'string' || !UUID.test(named))
    throw new BadRequest('community must be a community id (UUID)');
  return named.toLowerCase();
}

/** Whether the session's operator acts on `communityId`: the gateways' rule, over its claims. */
export const sessionCovers = (session: ConsoleSession, communityId: string): boolean =>
  operatorCovers(
    {
      sub: session.sub,
      username: session.username,
      roles: session.roles,
      communities: session.communities,
    },
    communityId,
  );

export function enforceAccess(access: RouteAccess, session: ConsoleSession, req: Request): void {
  if (!session.roles.some((role) => access.roles.includes(role)))
    throw new Forbidden(`operator role needed: ${access.roles.join(' or ')}`);
  const community = communityOfRequest(req);
  if (community !== undefined && !sessionCovers(session, community))
    throw new Forbidden(`operator does not act on community ${community}`);
  if (access.recentLogin && Date.now() - session.authTime.getTime() > RECENT_LOGIN_MS)
    throw new Reauthenticate();
}

export function accessGuard(access: RouteAccess): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      enforceAccess(access, sessionOf(res), req);
      next();
    } catch (err) {
      next(err);
    }
  };
}
