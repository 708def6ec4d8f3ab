// The console's read-only pages' data, straight from PostgreSQL (personal data never selected):
// who is logged in, the communities they see, sessions, webhooks and their deliveries, verifiers
// and configs (secrets masked), analytics. Lists stay inside the operator's communities.
import type { Knex } from '@idv/db';
import { SESSION_STATES } from '@idv/contracts';
import { BadRequest, Forbidden, NotFound, type Route } from '@idv/http';
import type { Keyring } from '@idv/platform';
import { sessionCovers } from '../access/accessGuard.ts';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import { listScope } from '../access/scope.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { analytics } from '../store/analytics.ts';
import { listSessions, type SessionCursor } from '../store/verificationSessions.ts';
import { listConfigs, listVerifiers } from '../store/verifiersView.ts';
import { listDeliveries, listWebhooks, webhookScope } from '../store/webhooksView.ts';
import { boundedTime, cursorFor, cursorOf, limitOf, oneOf, textOf } from './queryParams.ts';

export interface ReadDeps {
  guards: ApiGuards;
  db: Knex;
  keyring: Keyring;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A (created_at, id) this list gave: a time PostgreSQL takes and a session id (UUID). */
const isSessionCursor = (value: unknown): value is SessionCursor => {
  const { at, id } = (value ?? {}) as Partial<Record<keyof SessionCursor, unknown>>;
  return (
    typeof at === 'string' &&
    boundedTime(at) !== undefined &&
    typeof id === 'string' &&
    UUID.test(id)
  );
};

export function uuidParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || !UUID.test(value))
    throw new BadRequest(`${name} must be a UUID`);
  return value.toLowerCase();
}

export function readRoutes(deps: ReadDeps): Route[] {
  const { guards, db } = deps;
  return [
    apiRoute(guards, 'GET /api/me', (_req, res) => {
      const s = sessionOf(res);
      res.json({
        sub: s.sub,
        username: s.username,
        roles: s.roles,
        communities: s.communities,
        authTime: s.authTime.toISOString(),
        amr: s.amr,
        sessionExpiresAt: s.expiresAt.toISOString(),
      });
    }),
    apiRoute(guards, 'GET /api/communities', async (_req, res) => {
      const { communities } = sessionOf(res);
      const query = db('platform.communities').select('id', 'name').orderBy('name').limit(1000);
      if (communities.length) query.whereIn('id', communities);
      res.json({ items: await query });
    }),
    apiRoute(guards, 'GET /api/sessions', async (req, res) => {
      const limit = limitOf(req);
      const filter = {
        status: oneOf(req, 'status', SESSION_STATES),
        communities: listScope(req, res),
      };
      const items = await listSessions(db, filter, limit, cursorOf(req, isSessionCursor));
      const last = items.at(-1);
      res.json({
        items,
        next:
          items.length === limit && last
            ? cursorFor({ at: last.createdAt, id: last.sessionId })
            : null,
      });
    }),
    apiRoute(guards, 'GET /api/webhooks', async (req, res) => {
      res.json({ items: await listWebhooks(db, listScope(req, res)) });
    }),
    apiRoute(guards, 'GET /api/webhooks/:webhookId/deliveries', async (req, res) => {
      const webhookId = uuidParam(req.params.webhookId, 'webhookId');
      const community = (await webhookScope(db, webhookId))?.communityId;
      if (!community) throw new NotFound(`webhook ${webhookId} not found`);
      if (!sessionCovers(sessionOf(res), community))
        throw new Forbidden(`operator does not act on community ${community}`);
      res.json({ items: await listDeliveries(db, webhookId, limitOf(req, 50)) });
    }),
    apiRoute(guards, 'GET /api/verifiers', async (req, res) => {
      res.json({ items: await listVerifiers(db, deps.keyring, listScope(req, res)) });
    }),
    apiRoute(guards, 'GET /api/configs', async (req, res) => {
      res.json({ items: await listConfigs(db, listScope(req, res)) });
    }),
    apiRoute(guards, 'GET /api/analytics', async (req, res) => {
      const days = textOf(req, 'days', 3) ?? '30';
      if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 366)
        throw new BadRequest('days must be an integer from 1 to 366');
      res.json(await analytics(db, { days: Number(days), communities: listScope(req, res) }));
    }),
  ];
}
