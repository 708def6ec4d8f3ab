// The gateway's view of the delivery log: list a webhook's deliveries with attempts, redeliver one.
import { DELIVERIES_DUE_CHANNEL, type Delivery, type DeliveryAttempt } from '@idv/contracts';
import type { Knex } from '@idv/db';

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_name: string;
  status: Delivery['status'];
  next_attempt_at: Date;
  expires_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  latency_ms: number;
  outcome: DeliveryAttempt['outcome'];
  error: string | null;
}

const DELIVERIES = 'webhooks.deliveries';

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): Delivery {
  const open = row.status === 'pending' || row.status === 'delivering';
  return {
    _id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventName: row.event_name,
    status: row.status,
    nextAttemptAt: open ? row.next_attempt_at.toISOString() : null,
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at.toISOString(),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      outcome: a.outcome,
      error: a.error,
    })),
  };
}

export class DeliveryLog {
  constructor(private readonly db: Knex) {}

  private async withAttempts(rows: DeliveryRow[]): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    const attempts = (await this.db('webhooks.attempts')
      .whereIn(
        'delivery_id',
        rows.map((r) => r.id),
      )
      .orderBy('id')) as AttemptRow[];
    return rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    );
  }

  /** Newest first. */
  async list(webhookId: string, limit: number, before?: string): Promise<Delivery[]> {
    const query = this.db(DELIVERIES).where({ webhook_id: webhookId });
    if (before) query.where('created_at', '<', before);
    const rows = (await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)) as DeliveryRow[];
    return this.withAttempts(rows);
  }

  async find(webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
    const row = (await this.db(DELIVERIES)
      .where({ webhook_id: webhookId, id: deliveryId })
      .first()) as DeliveryRow | undefined;
    return row ? (await this.withAttempts([row]))[0] : undefined;
  }

  /**
   * Queues the delivery again with a fresh retry budget and no ttl cap (an operator asked for it);
   * the webhook-id stays the same. A delivery still in flight is left alone (false).
   */
  async redeliver(
    webhookId: string,
    deliveryId: string,
    /** written in the same transaction when the delivery is queued again (its audit row) */
    also?: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const changed = await trx(DELIVERIES)
        .where({ webhook_id: webhookId, id: deliveryId })
        .whereIn('status', ['succeeded', 'failed', 'pending'])
        .update({
          status: 'pending',
          round_attempts: 0,
          next_attempt_at: trx.fn.now(),
          expires_at: null,
          completed_at: null,
          lease_until: null,
        });
      if (changed === 0) return false;
      await also?.(trx);
      await trx.raw('SELECT pg_notify(?, ?)', [DELIVERIES_DUE_CHANNEL, deliveryId]);
      return true;
    });
  }
}
