// Operators' view of a community's sessions: list (newest first, by status, a page at a time) and
// one session; states, timestamps, attempts and ids only, never personal data, images or results.
import { fromParam, type CredentialAuth } from '@idv/auth';
import { SessionList, SessionListQuery, SessionSummary } from '@idv/contracts';
import { NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import { sessionSummary } from './sessionView.ts';
import type { SessionImageStore } from './sessionImageStore.ts';
import type { SessionStore } from './sessionStore.ts';
import { communityOfPath, MANAGER_LEVELS } from '../shared/community.ts';
import { afterCursor, listQuery, nextCursor } from '../shared/listCursor.ts';

export interface OperatorSessionDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  sessions: SessionStore;
  images: SessionImageStore;
}

export function operatorSessionRoutes(deps: OperatorSessionDeps): Route[] {
  const guards = [
    deps.auth.require({ levels: MANAGER_LEVELS, community: { id: fromParam('communityId') } }),
  ];
  const community = communityOfPath(deps.tenants);
  const base = '/sessions/community/:communityId';
  return [
    {
      method: 'GET',
      path: base,
      guards,
      doc: {
        summary:
          "the community's sessions, newest first (?status, ?limit 1..100, ?cursor = nextCursor of the previous page); no personal data",
        response: SessionList,
      },
      handler: async (req, res) => {
        const query = parseBody(SessionListQuery, listQuery(req));
        const { id } = await community(req);
        const limit = query.limit ?? 25;
        const sessions = await deps.sessions.list(id, {
          status: query.status,
          after: afterCursor(query.cursor, 'nextCursor'),
          limit,
        });
        const accepted = await deps.images.acceptedSides(sessions.map((s) => s.id));
        res.json({
          sessions: sessions.map((s) => sessionSummary(s, accepted.get(s.id) ?? [])),
          nextCursor: nextCursor(sessions, limit, (s) => [s.createdAt, s.id]),
        });
      },
    },
    {
      method: 'GET',
      path: `${base}/:sessionId`,
      guards,
      doc: {
        summary: 'one session of the community; no personal data, no images',
        response: SessionSummary,
      },
      handler: async (req, res) => {
        const { id } = await community(req);
        const session = await deps.sessions.byId(String(req.params.sessionId), [id]);
        if (!session) throw new NotFound(`session ${String(req.params.sessionId)} not found`);
        const accepted = await deps.images.acceptedSides([session.id]);
        res.json(sessionSummary(session, accepted.get(session.id) ?? []));
      },
    },
  ];
}
