// Whether an event matches a webhook: tenant, community, name, enabled, then query and criteria
// (semantics documented in contracts/http/webhooks.ts QUERY_DESCRIPTION).
import type { EventEnvelope, QueryEntry } from '@idv/contracts';

export interface Subscription {
  tenantId: string;
  communityId: string;
  eventNames: string[];
  disabled: boolean;
  query: QueryEntry[];
  criteria: 'ALL' | 'ANY';
}

function lookup(event: EventEnvelope, key: string): unknown {
  if (key === '$.origin') return event.origin ?? 'platform'; // left out: the platform's own
  const [root, path] = key.startsWith('$.')
    ? [event as unknown, key.slice(2)]
    : [event.data as unknown, key];
  let value = root;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function memberMatches(actual: unknown, wanted: QueryEntry[string]): boolean {
  const options = Array.isArray(wanted) ? wanted : [wanted];
  if (Array.isArray(actual)) return actual.some((item) => options.includes(item as never));
  if (actual === undefined) return false;
  return options.includes(actual as never);
}

function entryMatches(event: EventEnvelope, entry: QueryEntry): boolean {
  return Object.entries(entry).every(([key, wanted]) => memberMatches(lookup(event, key), wanted));
}

export function queryMatches(event: EventEnvelope, query: QueryEntry[], criteria: 'ALL' | 'ANY') {
  if (query.length === 0) return true;
  return criteria === 'ANY'
    ? query.some((entry) => entryMatches(event, entry))
    : query.every((entry) => entryMatches(event, entry));
}

export function eventMatches(event: EventEnvelope, webhook: Subscription): boolean {
  return (
    !webhook.disabled &&
    webhook.tenantId === event.tenantId &&
    webhook.communityId === event.communityId &&
    webhook.eventNames.includes(event.eventName) &&
    queryMatches(event, webhook.query, webhook.criteria)
  );
}
