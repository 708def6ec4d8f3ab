// The delivery log beyond the spec: a webhook's deliveries with every attempt, and redelivery (by a
// manager licence, or by an admin operator of the community from the console; audited either way).
import {
  fromParam,
  licenceOf,
  operatorOf,
  operatorOrCredentials,
  type CredentialAuth,
  type OperatorTokens,
} from '@idv/auth';
import { Delivery, DeliveryList, DeliveryListQuery } from '@idv/contracts';
import { Conflict, NotFound, parseBody, type Route } from '@idv/http';
import { appendAudit, type TenantStore } from '@idv/platform';
import type { Request } from 'express';
import type { DeliveryLog } from '../store/deliveries.ts';
import type { WebhookStore } from '../store/webhooks.ts';
import { managerGuard, webhookOfPath } from './scope.ts';
import { WEBHOOK_BASE } from './webhooks.ts';

export interface DeliveryRouteDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  webhooks: WebhookStore;
  deliveries: DeliveryLog;
  operators: OperatorTokens;
}

function queryOf(req: Request): unknown {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  if (typeof query.limit === 'string' && /^\d+$/.test(query.limit))
    query.limit = Number(query.limit);
  return query;
}

export function deliveryRoutes(deps: DeliveryRouteDeps): Route[] {
  const guards = [managerGuard(deps.auth)];
  const redeliverGuards = [
    operatorOrCredentials(
      deps.operators,
      { roles: ['admin'], community: fromParam('communityId') },
      managerGuard(deps.auth),
    ),
  ];
  const webhook = webhookOfPath(deps.tenants, deps.webhooks);
  const one = `${WEBHOOK_BASE}/webhook/:webhookId/delivery/:deliveryId`;

  return [
    {
      method: 'GET',
      path: `${WEBHOOK_BASE}/webhook/:webhookId/deliveries`,
      guards,
      doc: {
        summary:
          "the webhook's deliveries, newest first, each with every attempt (?limit, ?before)",
        response: DeliveryList,
        errors: [400],
      },
      handler: async (req, res) => {
        const query = parseBody(DeliveryListQuery, queryOf(req));
        const { id } = await webhook(req);
        res.json({ data: await deps.deliveries.list(id, query.limit ?? 25, query.before) });
      },
    },
    {
      method: 'GET',
      path: one,
      guards,
      doc: { summary: 'one delivery with every attempt', response: Delivery },
      handler: async (req, res) => {
        const { id } = await webhook(req);
        const found = await deps.deliveries.find(id, String(req.params.deliveryId));
        if (!found) throw new NotFound(`delivery ${String(req.params.deliveryId)} not found`);
        res.json(found);
      },
    },
    {
      method: 'POST',
      path: `${one}/redeliver`,
      guards: redeliverGuards,
      jsonBody: false,
      doc: {
        summary: 'sends the delivery again, under the same webhook-id',
        success: 202,
        response: Delivery,
        errors: [409],
      },
      handler: async (req, res) => {
        const { id } = await webhook(req);
        const deliveryId = String(req.params.deliveryId);
        if (!(await deps.deliveries.find(id, deliveryId)))
          throw new NotFound(`delivery ${deliveryId} not found`);
        const operator = operatorOf(res);
        const redelivered = await deps.deliveries.redeliver(id, deliveryId, (trx) =>
          appendAudit(trx, {
            actor: operator ? `operator:${operator.username}` : `licence:${licenceOf(res).id}`,
            action: 'webhook.delivery.redelivered',
            communityId: String(req.params.communityId),
            subject: { kind: 'webhook-delivery', id: deliveryId },
            details: { webhookId: id },
          }),
        );
        if (!redelivered) throw new Conflict(`delivery ${deliveryId} is being delivered right now`);
        res.status(202).json(await deps.deliveries.find(id, deliveryId));
      },
    },
  ];
}
