// The tenant and community a webhook path names, and the access rule every webhook path declares.
import { fromParam, type CredentialAuth } from '@idv/auth';
import { NotFound } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { Request, RequestHandler } from 'express';
import type { Scope, WebhookRecord, WebhookStore } from '../store/webhooks.ts';

export const MANAGER_LEVELS = ['system', 'service', 'service_ext'] as const;

export function managerGuard(auth: CredentialAuth): RequestHandler {
  return auth.require({
    levels: MANAGER_LEVELS,
    community: { id: fromParam('communityId') },
    tenant: fromParam('tenantId'),
  });
}

export const managerGuards = (auth: CredentialAuth): RequestHandler[] => [managerGuard(auth)];

/**
 * The community of :communityId (by id only) inside :tenantId. Runs after the licence check; a
 * community of another tenant is 404 as if it did not exist (a system licence passes the rule).
 */
export function scopeOfPath(tenants: TenantStore) {
  return async (req: Request): Promise<Scope> => {
    const tenantId = String(req.params.tenantId);
    const community = await tenants.findCommunityById(String(req.params.communityId));
    if (!community || community.tenantId !== tenantId)
      throw new NotFound(
        `community ${String(req.params.communityId)} not found in tenant ${tenantId}`,
      );
    return { tenantId, communityId: community.id };
  };
}

/** The webhook of :webhookId inside the path's scope; 404 when it is not there. */
export function webhookOfPath(tenants: TenantStore, webhooks: WebhookStore) {
  const scopeOf = scopeOfPath(tenants);
  return async (req: Request): Promise<WebhookRecord> => {
    const found = await webhooks.find(await scopeOf(req), String(req.params.webhookId));
    if (!found) throw new NotFound(`webhook ${String(req.params.webhookId)} not found`);
    return found;
  };
}
