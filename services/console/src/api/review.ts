// The review queue, cases, decisions and erasure for the web app: each call goes to the docverify
// gateway with the operator's access token, which re-checks the role and audits what it serves
// (case data and image reads, decisions, erasures), so nothing is audited twice here.
import { BadRequest, type Route } from '@idv/http';
import type { Request, Response } from 'express';
import { Reauthenticate } from '../access/accessGuard.ts';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import type { ApiRouteKey } from '../access/routeAccess.ts';
import type { GatewayCall } from '../gateways/gatewayCall.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';

export interface ReviewDeps {
  guards: ApiGuards;
  sessions: SessionStore;
  docverify: GatewayCall;
}

const QUEUE_FILTERS = ['state', 'assignee', 'overdue', 'limit', 'cursor'];
const IMAGE_NAME = /^[A-Za-z0-9_-]{1,40}$/;

function queryOf(req: Request, names: string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of names) {
    const value = req.query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 400)
      throw new BadRequest(`${name} must be one text value`);
    query[name] = value;
  }
  return query;
}

/** A body the gateway judges member by member: here only a JSON object. */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}

export function reviewRoutes(deps: ReviewDeps): Route[] {
  const forward = (
    key: ApiRouteKey,
    shape: { query?: string[]; body?: 'object' | 'none' } = {},
  ): Route => {
    const path = key.split(' ')[1]!;
    return apiRoute(
      deps.guards,
      key,
      async (req: Request, res: Response) => {
        const tokens = await deps.sessions.tokens(sessionOf(res).idHash);
        if (!tokens) throw new BadRequest('the session ended');
        const answer = await deps.docverify({
          method: key.startsWith('POST') ? 'POST' : 'GET',
          path: gatewayPath(path, req),
          accessToken: tokens.accessToken,
          query: queryOf(req, shape.query ?? []),
          ...(shape.body === 'object' ? { body: jsonObject(req.body) } : {}),
          requestId: String(res.locals.requestId),
        });
        // the gateway judges the token's sign-in too old (erasure): the web app's own re-login
        if (answer.stepUp) throw new Reauthenticate();
        res.status(answer.status).type(answer.contentType).send(answer.body);
      },
      shape.body === 'none' ? { jsonBody: false } : {},
    );
  };

  const CASE = '/api/review/community/:communityId/cases/:caseId';
  return [
    forward('GET /api/review/reasons'),
    forward('GET /api/review/community/:communityId/cases', { query: QUEUE_FILTERS }),
    forward(`GET ${CASE}`),
    forward(`GET ${CASE}/data`),
    forward(`GET ${CASE}/images/:name`),
    forward(`POST ${CASE}/claim`, { body: 'none' }),
    forward(`POST ${CASE}/release`, { body: 'none' }),
    forward(`POST ${CASE}/notes`, { body: 'object' }),
    forward(`POST ${CASE}/decision`, { body: 'object' }),
    forward('POST /api/erasure/community/:communityId', { body: 'object' }),
  ];
}

/**
 * The gateway's path for a console path: /api dropped, each parameter checked and encoded. A
 * parameter of dots only is refused: `.` and `..` (sent as %2e) stay dot segments after encoding,
 * and the URL they go out in would resolve them to another route of the gateway.
 */
function gatewayPath(pattern: string, req: Request): string {
  return pattern.replace(/^\/api/, '').replace(/:(\w+)/g, (_m, name: string) => {
    const value = String(req.params[name]);
    if (name === 'name' && !IMAGE_NAME.test(value)) throw new BadRequest('image name is not valid');
    if (!/^[A-Za-z0-9._~-]{1,100}$/.test(value) || /^\.+$/.test(value))
      throw new BadRequest(`${name} is not valid`);
    return encodeURIComponent(value);
  });
}
