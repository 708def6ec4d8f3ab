// Which communities a list may show: the one asked for (already checked by the access rule), else
// the operator's own (none listed: every community). Lists filter on it in SQL, so another
// community's rows never leave the database.
import type { Request, Response } from 'express';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { communityOfRequest } from './accessGuard.ts';

/** undefined: every community; else the ids a query must stay inside. */
export function listScope(req: Request, res: Response): string[] | undefined {
  const asked = communityOfRequest(req);
  if (asked) return [asked];
  const { communities } = sessionOf(res);
  return communities.length ? communities : undefined;
}
