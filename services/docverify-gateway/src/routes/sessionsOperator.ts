// Operators' view of a community's sessions: list (newest first, by status, a page at a time) and
// one session; states, timestamps, attempts and ids only, never personal data, images or results.
import { fromParam, type CredentialAuth } from '@idv/auth';
import { SessionList, SessionListQuery, SessionSummary } from '@idv/contracts';
import { BadRequest, NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { Request } from 'express';
import { sessionSummary } from '../sessions/sessionView.ts';
import type { SessionImageStore } from '../store/sessionImages.ts';
import type { SessionStore } from '../store/sessions.ts';
import { communityOfPath, MANAGER_LEVELS } from './community.ts';

export interface OperatorSessionDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  sessions: SessionStore;
  images: SessionImageStore;
}

function queryOf(req: Request): unknown {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  if (typeof query.limit === 'string' && /^\d+$/.test(query.limit))
    query.limit = Number(query.limit);
  return query;
}

/** The cursor is the last session of a page: its creation time and id, opaque to callers. */
const cursorOf = (createdAt: Date, id: string) =>
  Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');

function afterCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(String(at));
    if (typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) && !Number.isNaN(createdAt.getTime()))
      return { createdAt, id };
  } catch {
    // falls through to the 400
  }
  throw new BadRequest('cursor is not one this list gave', [
    { path: '/cursor', message: 'use nextCursor of the previous page' },
  ]);
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
        const query = parseBody(SessionListQuery, queryOf(req));
        const { id } = await community(req);
        const limit = query.limit ?? 25;
        const sessions = await deps.sessions.list(id, {
          status: query.status,
          after: afterCursor(query.cursor),
          limit,
        });
        const accepted = await deps.images.acceptedSides(sessions.map((s) => s.id));
        const last = sessions.at(-1);
        res.json({
          sessions: sessions.map((s) => sessionSummary(s, accepted.get(s.id) ?? [])),
          nextCursor: sessions.length === limit && last ? cursorOf(last.createdAt, last.id) : null,
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
