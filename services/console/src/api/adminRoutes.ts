// Admin actions the console performs itself, each audited here (actor operator:<username>):
// revealing a verifier's secrets (after a recent login) and redelivering a webhook delivery. The
// webhooks gateway's own redeliver takes a manager licence only, which the console does not hold,
// so the console makes the same change to the delivery row that route makes.
import { operatorCovers } from '@idv/auth';
import type { Knex } from '@idv/db';
import { Conflict, Forbidden, NotFound, type Route } from '@idv/http';
import { appendAudit, type Keyring } from '@idv/platform';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { revealVerifier } from '../store/verifiersView.ts';
import { redeliver, webhookCommunity } from '../store/webhooksView.ts';
import { uuidParam } from './readRoutes.ts';

export function adminRoutes(deps: { guards: ApiGuards; db: Knex; keyring: Keyring }): Route[] {
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
        if (!operatorCovers(session, verifier.communityId))
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
        const session = sessionOf(res);
        const community = await webhookCommunity(db, webhookId);
        if (!community) throw new NotFound(`webhook ${webhookId} not found`);
        if (!operatorCovers(session, community))
          throw new Forbidden(`operator does not act on community ${community}`);
        const done = await db.transaction(async (trx) => {
          if (!(await redeliver(trx, webhookId, deliveryId))) return false;
          await appendAudit(trx, {
            actor: `operator:${session.username}`,
            action: 'console.webhook.redelivered',
            communityId: community,
            subject: { kind: 'webhook-delivery', id: deliveryId },
            details: { webhookId },
          });
          return true;
        });
        if (!done) {
          const known = await db('webhooks.deliveries').where({ webhook_id: webhookId, id: deliveryId }).first('id'); // prettier-ignore
          if (!known) throw new NotFound(`delivery ${deliveryId} not found`);
          throw new Conflict(`delivery ${deliveryId} is being delivered right now`);
        }
        res.status(202).json({ redelivered: true, deliveryId });
      },
      { jsonBody: false },
    ),
  ];
}
