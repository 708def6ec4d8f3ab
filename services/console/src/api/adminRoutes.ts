// Admin actions: revealing a verifier's secrets (after a recent login), audited here (actor
// operator:<username>), and redelivering a webhook delivery, which the webhooks gateway does for
// the operator's token (it re-checks the admin role and writes the audit row).
import type { Knex } from '@idv/db';
import { BadRequest, Forbidden, NotFound, type Route } from '@idv/http';
import { appendAudit, type Keyring } from '@idv/platform';
import { sessionCovers } from '../access/accessGuard.ts';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { revealVerifier } from '../store/verifiersView.ts';
import type { GatewayCall } from '../gateways/gatewayCall.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { webhookScope } from '../store/webhooksView.ts';
import { uuidParam } from './readRoutes.ts';

export interface AdminRouteDeps {
  guards: ApiGuards;
  db: Knex;
  keyring: Keyring;
  sessions: SessionStore;
  webhooks: GatewayCall;
}

export function adminRoutes(deps: AdminRouteDeps): Route[] {
  const { guards, db } = deps;
  return [
    apiRoute(
      guards,
      'POST /api/verifiers/:verifierId/reveal',
      async (req, res) => {
        const verifierId = uuidParam(req.params.verifierId, 'verifierId');
        const session = sessionOf(res);
        const verifier = await revealVerifier(db, deps.keyring, verifierId);
        if (!verifier) throw new NotFound(`verifier ${verifierId} not found`);
        if (!sessionCovers(session, verifier.communityId))
          throw new Forbidden(`operator does not act on community ${verifier.communityId}`);
        await appendAudit(db, {
          actor: `operator:${session.username}`,
          action: 'console.verifier.secret_revealed',
          communityId: verifier.communityId,
          subject: { kind: 'verifier', id: verifierId },
        });
        res.json(verifier);
      },
      { jsonBody: false },
    ),
    apiRoute(
      guards,
      'POST /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
      async (req, res) => {
        const webhookId = uuidParam(req.params.webhookId, 'webhookId');
        const deliveryId = String(req.params.deliveryId);
        if (!/^msg_[0-9a-f]{1,64}$/.test(deliveryId))
          throw new BadRequest('deliveryId is not one the delivery log gave');
        const session = sessionOf(res);
        const scope = await webhookScope(db, webhookId);
        if (!scope) throw new NotFound(`webhook ${webhookId} not found`);
        if (!sessionCovers(session, scope.communityId))
          throw new Forbidden(`operator does not act on community ${scope.communityId}`);
        const tokens = await deps.sessions.tokens(session.idHash);
        if (!tokens) throw new BadRequest('the session ended');
        const answer = await deps.webhooks({
          method: 'POST',
          path: `/tenant/${scope.tenantId}/community/${scope.communityId}/webhook/${webhookId}/delivery/${deliveryId}/redeliver`,
          accessToken: tokens.accessToken,
          requestId: String(res.locals.requestId),
        });
        res.status(answer.status).type(answer.contentType).send(answer.body);
      },
      { jsonBody: false },
    ),
  ];
}
