// Webhook registration (spec 4): PUT create, PATCH, DELETE and POST fetch under a tenant's community.
import { licenceOf, type CredentialAuth } from '@idv/auth';
import {
  Webhook,
  WebhookCreate,
  WebhookFetchBody,
  WebhookFetchResult,
  WebhookPatch,
  type ValidationIssue,
} from '@idv/contracts';
import { BadRequest, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import { presentWebhook } from '../domain/presentWebhook.ts';
import { apiIssues, eventNameIssues } from '../domain/webhookRules.ts';
import type { WebhookStore } from '../store/webhooks.ts';
import { managerGuards, scopeOfPath, webhookOfPath } from './scope.ts';

export interface WebhookRouteDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  webhooks: WebhookStore;
  servicePublicKey: () => Promise<string>;
}

function refuse(issues: ValidationIssue[]): void {
  const first = issues[0];
  if (first) throw new BadRequest(`body is invalid: ${first.path} ${first.message}`, issues);
}

export const WEBHOOK_BASE = '/tenant/:tenantId/community/:communityId';

export function webhookRoutes(deps: WebhookRouteDeps): Route[] {
  const guards = managerGuards(deps.auth);
  const scopeOf = scopeOfPath(deps.tenants);
  const webhook = webhookOfPath(deps.tenants, deps.webhooks);

  return [
    {
      method: 'PUT',
      path: `${WEBHOOK_BASE}/webhook`,
      guards,
      doc: {
        summary: 'creates a webhook; the answer carries its signing secret (once)',
        body: WebhookCreate,
        response: Webhook,
      },
      handler: async (req, res) => {
        const input = parseBody(WebhookCreate, req.body);
        refuse([...eventNameIssues(input.eventNames), ...apiIssues(input.api)]);
        const licence = licenceOf(res);
        const scope = await scopeOf(req);
        const created = await deps.webhooks.create(scope, {
          ...input,
          createdBy: input.createdBy ?? licence.id,
        });
        res.json(presentWebhook(created, { system: licence.level === 'system', secret: true }));
      },
    },
    {
      method: 'PATCH',
      path: `${WEBHOOK_BASE}/webhook/:webhookId`,
      guards,
      doc: {
        summary: 'changes the members given; {"rotateSecret": true} makes a new secret',
        body: WebhookPatch,
        response: Webhook,
      },
      handler: async (req, res) => {
        const changes = parseBody(WebhookPatch, req.body);
        refuse([
          ...eventNameIssues(changes.eventNames ?? []),
          ...(changes.api ? apiIssues(changes.api) : []),
        ]);
        const updated = await deps.webhooks.update(await webhook(req), changes);
        const system = licenceOf(res).level === 'system';
        res.json(presentWebhook(updated, { system, secret: changes.rotateSecret === true }));
      },
    },
    {
      method: 'DELETE',
      path: `${WEBHOOK_BASE}/webhook/:webhookId`,
      guards,
      jsonBody: false,
      doc: { summary: 'deletes a webhook and its delivery log', success: 204 },
      handler: async (req, res) => {
        await deps.webhooks.delete(await webhook(req));
        res.status(204).end();
      },
    },
    {
      method: 'POST',
      path: `${WEBHOOK_BASE}/webhooks/fetch`,
      guards,
      doc: {
        summary: "a page of the community's webhooks, optionally those with one of the tags",
        body: WebhookFetchBody,
        response: WebhookFetchResult,
      },
      handler: async (req, res) => {
        const query = parseBody(WebhookFetchBody, req.body ?? {});
        const system = licenceOf(res).level === 'system';
        const { total, records } = await deps.webhooks.page(await scopeOf(req), {
          index: query.pIndex,
          size: query.pSize,
          tags: query.tags,
        });
        res.json({
          page: { index: query.pIndex, total, size: query.pSize },
          data: records.map((record) => presentWebhook(record, { system })),
          publicKey: await deps.servicePublicKey(),
        });
      },
    },
  ];
}
