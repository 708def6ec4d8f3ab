// Who may call each /api route (issue 28's role matrix), in one table: the roles allowed, and
// whether the action needs a login of the last 5 minutes. A route missing here cannot be served
// (apiRoutes refuses to build it), so no route is left open by omission.
import type { OperatorRole } from '@idv/auth';

export interface RouteAccess {
  roles: readonly OperatorRole[];
  /** sensitive: the operator must have logged in at the issuer within RECENT_LOGIN_MS */
  recentLogin?: boolean;
}

export const RECENT_LOGIN_MS = 5 * 60_000;

/** Every role reads the queue, case summaries, sessions, webhooks, verifiers and analytics. */
const READ: readonly OperatorRole[] = ['viewer', 'auditor', 'reviewer', 'senior_reviewer', 'admin'];
const AUDIT: readonly OperatorRole[] = ['auditor', 'admin'];
/** personal data and images of a case, and working on it (the gateway adds the four-eyes rule) */
const REVIEW: readonly OperatorRole[] = ['reviewer', 'senior_reviewer', 'admin'];
const ADMIN: readonly OperatorRole[] = ['admin'];

const CASE = '/api/review/community/:communityId/cases/:caseId';

export const ROUTE_ACCESS = {
  'GET /api/me': { roles: READ },
  'GET /api/communities': { roles: READ },
  'GET /api/review/reasons': { roles: READ },
  'GET /api/review/community/:communityId/cases': { roles: READ },
  [`GET ${CASE}`]: { roles: READ },
  [`GET ${CASE}/data`]: { roles: REVIEW },
  [`GET ${CASE}/images/:name`]: { roles: REVIEW },
  [`POST ${CASE}/claim`]: { roles: REVIEW },
  [`POST ${CASE}/release`]: { roles: REVIEW },
  [`POST ${CASE}/notes`]: { roles: REVIEW },
  [`POST ${CASE}/decision`]: { roles: REVIEW },
  'POST /api/erasure/community/:communityId': { roles: ADMIN, recentLogin: true },
  'GET /api/audit': { roles: AUDIT },
  'GET /api/audit/export': { roles: AUDIT },
  'GET /api/sessions': { roles: READ },
  'GET /api/webhooks': { roles: READ },
  'GET /api/webhooks/:webhookId/deliveries': { roles: READ },
  'POST /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver': { roles: ADMIN },
  'GET /api/verifiers': { roles: READ },
  'GET /api/configs': { roles: READ },
  'POST /api/verifiers/:verifierId/reveal': { roles: ADMIN, recentLogin: true },
  'PATCH /api/verifiers/:verifierId': { roles: ADMIN, recentLogin: true },
  'PATCH /api/configs/:configId': { roles: ADMIN, recentLogin: true },
  'GET /api/analytics': { roles: READ },
} satisfies Record<string, RouteAccess>;

export type ApiRouteKey = keyof typeof ROUTE_ACCESS;
