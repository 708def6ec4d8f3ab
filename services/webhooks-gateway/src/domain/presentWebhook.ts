// A stored webhook as callers see it: credential and secret only where the decisions allow them.
import type { Webhook, WebhookApi } from '@idv/contracts';
import type { WebhookRecord } from '../store/webhooks.ts';

export interface Disclosure {
  /** the system licence: api.credential and the signing secret */
  system: boolean;
  /** the secret even without the system licence: on create and on a rotating update */
  secret?: boolean;
}

export function presentWebhook(record: WebhookRecord, disclosure: Disclosure): Webhook {
  const { credential, ...api } = record.api;
  const shownApi: WebhookApi = disclosure.system && credential ? { ...api, credential } : api;
  const webhook: Webhook = {
    _id: record.id,
    tenantId: record.tenantId,
    communityId: record.communityId,
    eventNames: record.eventNames,
    name: record.name,
    disabled: record.disabled,
    createdBy: record.createdBy,
    tags: record.tags,
    query: record.query,
    criteria: record.criteria,
    api: shownApi,
    successCodes: record.successCodes,
    retryCodes: record.retryCodes,
    retryCount: record.retryCount,
    ttl: record.ttl,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
  if (disclosure.system || disclosure.secret) webhook.secret = record.secret;
  return webhook;
}
