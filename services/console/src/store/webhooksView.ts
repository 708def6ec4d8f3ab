// Reads of the webhooks schema for the console: webhooks without their credential or secret (the
// target shown as origin and path only: a query may carry a token), and the delivery log without
// the bodies (redelivery is the webhooks gateway's, api/adminRoutes.ts).
import type { Knex } from '@idv/db';

const targetOf = (url: unknown): string | null => {
  const parsed = typeof url === 'string' ? URL.parse(url) : null;
  return parsed ? `${parsed.origin}${parsed.pathname}` : null;
};

export async function listWebhooks(db: Knex, communities: string[] | undefined) {
  const query = db('webhooks.webhooks')
    .select(
      'id',
      'tenant_id',
      'community_id',
      'name',
      'event_names',
      'disabled',
      'criteria',
      'query',
      'retry_count',
      'ttl',
      'created_at',
      'updated_at',
      db.raw("api->>'url' AS url"),
    )
    .orderBy('created_at', 'desc')
    .limit(500);
  if (communities) query.whereIn('community_id', communities);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({
    webhookId: row.id as string,
    tenantId: row.tenant_id as string,
    communityId: row.community_id as string,
    name: row.name as string,
    disabled: row.disabled as boolean,
    eventNames: row.event_names as string[],
    /** the conditions on an event's data (all or any of them, by criteria) */
    criteria: row.criteria as string,
    conditions: row.query as unknown,
    retryCount: row.retry_count as number,
    ttlMinutes: row.ttl as number,
    target: targetOf(row.url),
    createdAt: (row.created_at as Date).toISOString(),
    updatedAt: (row.updated_at as Date).toISOString(),
  }));
}

/** The community of a webhook, or undefined when there is no such webhook. */
export async function webhookScope(
  db: Knex,
  webhookId: string,
): Promise<{ tenantId: string; communityId: string } | undefined> {
  const row = (await db('webhooks.webhooks')
    .where({ id: webhookId })
    .first('tenant_id', 'community_id')) as { tenant_id: string; community_id: string } | undefined;
  return row && { tenantId: row.tenant_id, communityId: row.community_id };
}

export async function listDeliveries(db: Knex, webhookId: string, limit: number) {
  const rows = (await db('webhooks.deliveries as d')
    .where('d.webhook_id', webhookId)
    .select(
      'd.id',
      'd.event_id',
      'd.event_name',
      'd.status',
      'd.round_attempts',
      'd.next_attempt_at',
      'd.event_at',
      'd.created_at',
      'd.completed_at',
    )
    .select(
      db.raw(
        `(SELECT count(*)::int FROM webhooks.attempts a WHERE a.delivery_id = d.id) AS attempts`,
      ),
      db.raw(`(SELECT json_build_object('at', a.at, 'statusCode', a.status_code, 'latencyMs', a.latency_ms, 'outcome', a.outcome, 'error', a.error)
                 FROM webhooks.attempts a WHERE a.delivery_id = d.id ORDER BY a.at DESC LIMIT 1) AS last_attempt`),
    )
    .orderBy('d.created_at', 'desc')
    .limit(limit)) as Record<string, unknown>[];
  return rows.map((row) => ({
    deliveryId: row.id as string,
    eventId: row.event_id as string,
    eventName: row.event_name as string,
    status: row.status as string,
    attempts: row.attempts as number,
    lastAttempt: row.last_attempt as unknown,
    nextAttemptAt: (row.next_attempt_at as Date).toISOString(),
    eventAt: (row.event_at as Date).toISOString(),
    createdAt: (row.created_at as Date).toISOString(),
    completedAt: (row.completed_at as Date | null)?.toISOString() ?? null,
  }));
}
