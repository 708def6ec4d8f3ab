// GET /.well-known: public, no credentials.
import { DocverifyWellKnown } from '@idv/contracts';
import type { Route } from '@idv/http';
import { WELL_KNOWN } from './wellKnown.ts';

export const wellKnownRoutes: Route[] = [
  {
    method: 'GET',
    path: '/.well-known',
    doc: {
      summary: 'option lists and constants (spec 2.1), no credentials',
      response: DocverifyWellKnown,
    },
    handler: (_req, res) => res.json(WELL_KNOWN),
  },
];
