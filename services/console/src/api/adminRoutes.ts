// Admin actions: revealing a verifier's secrets (after a recent login), audited here (actor
// operator:<username>); editing a verifier or a verification config (after a recent login) and
// redelivering a webhook delivery, which the gateways do for the operator's token (they re-check
// the admin role, and the recent login, and write the audit row).
import type { Knex } from '@idv/db';
import { BadRequest, Forbidden, NotFound, type Route } from '@idv/http';
import { appendAudit, type Keyring } from '@idv/platform';
import type { Response } from 'express';
import { Reauthenticate, sessionCovers } from '../access/accessGuard.ts';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { configScope, revealVerifier, verifierScope } from '../store/verifiersView.ts';
import type { GatewayCall, GatewayRequest } from '../gateways/gatewayCall.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';
import { webhookScope } from '../store/webhooksView.ts';
import { uuidParam } from './readRoutes.ts';
import { jsonObject } from './review.ts';

export interface AdminRouteDeps {
  guards: ApiGuards;
  db: Knex;
  keyring: Keyring;
  sessions: SessionStore;
  webhooks: GatewayCall;
  docverify: GatewayCall;
}

interface Scope {
  communityId: string;
}

/** Refuses what the operator's session does not cover: 404 for nothing there, 403 for another's. */
function covered<T extends Scope>(res: Response, scope: T | undefined, what: string): T {
  if (!scope) throw new NotFound(`${what} not found`);
  if (!sessionCovers(sessionOf(res), scope.communityId))
    throw new Forbidden(`operator does not act on community ${scope.communityId}`);
  return scope;
}

/** `request` made to `gateway` with the operator's access token; its answer handed back as it came. */
async function onGateway(
  deps: AdminRouteDeps,
  gateway: GatewayCall,
  res: Response,
  request: Omit<GatewayRequest, 'accessToken' | 'requestId'>,
): Promise<void> {
  const tokens = await deps.sessions.tokens(sessionOf(res).idHash);
  if (!tokens) throw new BadRequest('the session ended');
  const answer = await gateway({
    ...request,
    accessToken: tokens.accessToken,
    requestId: String(res.locals.requestId),
  });
  if (answer.stepUp) throw new Reauthenticate();
  res.status(answer.status).type(answer.contentType).send(answer.body);
}

export function adminRoutes(deps: AdminRouteDeps): Route[] {
  const { guards, db } = deps;
  return [
    apiRoute(
      guards,
      'POST /api/verifiers/:verifierId/reveal',
      async (req, res) => {
        const verifierId = uuidParam(req.params.verifierId, 'verifierId');
        const verifier = covered(
          res,
          await revealVerifier(db, deps.keyring, verifierId),
          `verifier ${verifierId}`,
        );
        await appendAudit(db, {
          actor: `operator:${sessionOf(res).username}`,
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
        const scope = covered(res, await webhookScope(db, webhookId), `webhook ${webhookId}`);
        await onGateway(deps, deps.webhooks, res, {
          method: 'POST',
          path: `/tenant/${scope.tenantId}/community/${scope.communityId}/webhook/${webhookId}/delivery/${deliveryId}/redeliver`,
        });
      },
      { jsonBody: false },
    ),
    apiRoute(guards, 'PATCH /api/verifiers/:verifierId', async (req, res) => {
      const verifierId = uuidParam(req.params.verifierId, 'verifierId');
      const scope = covered(res, await verifierScope(db, verifierId), `verifier ${verifierId}`);
      await onGateway(deps, deps.docverify, res, {
        method: 'PATCH',
        path: `/verifier/community/${scope.communityId}/${verifierId}`,
        body: jsonObject(req.body),
      });
    }),
    apiRoute(guards, 'PATCH /api/configs/:configId', async (req, res) => {
      const configId = uuidParam(req.params.configId, 'configId');
      const scope = covered(
        res,
        await configScope(db, configId),
        `verification config ${configId}`,
      );
      await onGateway(deps, deps.docverify, res, {
        method: 'PATCH',
        path: `/verificationConfig/community/${scope.communityId}/${configId}`,
        body: jsonObject(req.body),
      });
    }),
  ];
}
