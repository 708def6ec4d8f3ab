// The durable delivery queue in `webhooks.deliveries`: rows made per (event, webhook) before the
// broker ack, claimed with a lease (SKIP LOCKED) so a killed dispatcher's work is taken over.
import type { Knex } from '@idv/db';

export interface NewDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventName: string;
  body: string;
  eventAt: Date;
  expiresAt: Date | null;
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  body: string;
  roundAttempts: number;
  nextAttemptAt: Date;
  expiresAt: Date | null;
  eventAt: Date;
}

export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  outcome: 'succeeded' | 'retry' | 'failed';
  error: string | null;
  /** for a retry: when the next attempt is due */
  nextAttemptAt?: Date;
}

const DELIVERIES = 'webhooks.deliveries';

export class DeliveryQueue {
  constructor(
    private readonly db: Knex,
    private readonly leaseMs: number,
  ) {}

  /** Idempotent per (event, webhook): a redelivered event adds nothing. */
  async add(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db(DELIVERIES)
      .insert(
        deliveries.map((d) => ({
          id: d.id,
          webhook_id: d.webhookId,
          event_id: d.eventId,
          event_name: d.eventName,
          body: d.body,
          event_at: d.eventAt,
          expires_at: d.expiresAt,
        })),
      )
      .onConflict(['event_id', 'webhook_id'])
      .ignore();
  }

  /** Due pending rows, and rows whose lease ran out (their dispatcher died), oldest due first. */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const result = await this.db.raw<{ rows: Record<string, unknown>[] }>(
      `UPDATE webhooks.deliveries d
          SET status = 'delivering', lease_until = now() + (? * interval '1 millisecond')
        WHERE d.id IN (
          SELECT id FROM webhooks.deliveries
           WHERE (status = 'pending' AND next_attempt_at <= now())
              OR (status = 'delivering' AND lease_until < now())
           ORDER BY next_attempt_at
           LIMIT ?
           FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.webhook_id, d.event_id, d.body, d.round_attempts, d.next_attempt_at,
                d.expires_at, d.event_at`,
      [this.leaseMs, limit],
    );
    return result.rows.map((r) => ({
      id: r.id as string,
      webhookId: r.webhook_id as string,
      eventId: r.event_id as string,
      body: r.body as string,
      roundAttempts: r.round_attempts as number,
      nextAttemptAt: r.next_attempt_at as Date,
      expiresAt: (r.expires_at as Date | null) ?? null,
      eventAt: r.event_at as Date,
    }));
  }

  /** Gives a claimed row back without an attempt (its target is saturated or its breaker open). */
  async release(id: string, at: Date): Promise<void> {
    await this.db(DELIVERIES)
      .where({ id, status: 'delivering' })
      .update({ status: 'pending', next_attempt_at: at, lease_until: null });
  }

  /** Logs the attempt and moves the delivery on, in one transaction. */
  async record(delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO webhooks.attempts (delivery_id, attempt, at, status_code, latency_ms, outcome, error)
         SELECT ?, count(*) + 1, ?, ?, ?, ?, ? FROM webhooks.attempts WHERE delivery_id = ?`,
        [
          delivery.id,
          attempt.at,
          attempt.statusCode,
          attempt.latencyMs,
          attempt.outcome,
          attempt.error,
          delivery.id,
        ],
      );
      const done = attempt.outcome !== 'retry';
      await trx(DELIVERIES)
        .where({ id: delivery.id })
        .update({
          status: attempt.outcome === 'retry' ? 'pending' : attempt.outcome,
          round_attempts: delivery.roundAttempts + 1,
          next_attempt_at: attempt.nextAttemptAt ?? trx.fn.now(),
          lease_until: null,
          completed_at: done ? trx.fn.now() : null,
        });
    });
  }
}
