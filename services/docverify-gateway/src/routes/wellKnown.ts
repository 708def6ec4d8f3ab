// GET /.well-known: public, no credentials.
import type { Route } from '@idv/http';
import { WELL_KNOWN } from '../domain/wellKnown.ts';

export const wellKnownRoutes: Route[] = [
  { method: 'GET', path: '/.well-known', handler: (_req, res) => res.json(WELL_KNOWN) },
];
