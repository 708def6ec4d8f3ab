// An /api route of the console with its guards in order: cross-site writes refused, a live
// session, then the route's access rule from routeAccess.ts. Answers are never cached.
import type { Route } from '@idv/http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { accessGuard } from './accessGuard.ts';
import { ROUTE_ACCESS, type ApiRouteKey } from './routeAccess.ts';

export interface ApiGuards {
  sameOrigin: RequestHandler;
  session: RequestHandler;
}

const noStore = (_req: Request, res: Response, next: NextFunction) => {
  res.set('Cache-Control', 'no-store');
  next();
};

export function apiRoute(
  guards: ApiGuards,
  key: ApiRouteKey,
  handler: Route['handler'],
  more: Pick<Route, 'doc' | 'jsonBody'> = {},
): Route {
  const [method, path] = key.split(' ') as [Route['method'], string];
  const writes = method !== 'GET';
  return {
    method,
    path,
    guards: [
      noStore,
      ...(writes ? [guards.sameOrigin] : []),
      guards.session,
      accessGuard(ROUTE_ACCESS[key]),
    ],
    handler,
    ...more,
  };
}
