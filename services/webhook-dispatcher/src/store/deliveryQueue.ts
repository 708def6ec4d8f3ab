// The durable delivery queue in `webhooks.deliveries`: rows made per (event, webhook) before the
// broker ack, claimed with a lease (SKIP LOCKED) so a killed dispatcher's work is taken over.
import { Batcher, hasSqlState, type Knex } from '@idv/db';
import { recordAttempts, type FinishedAttempt } from './recordAttempts.ts';
import { recordFirstAttempts, type FirstAttempt } from './recordFirstAttempts.ts';

export interface NewDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventName: string;
  body: string;
  eventAt: Date;
  expiresAt: Date | null;
  /** due later than now (its target was busy when it came) */
  nextAttemptAt?: Date;
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

/** The delivery's webhook was deleted after the event matched it: there is no row to write. */
export class WebhookGone extends Error {
  override readonly name = 'WebhookGone';
}

/** A row refused for pointing at a deleted webhook is WebhookGone; anything else as it is. */
function goneIfOrphan(err: unknown): never {
  if (hasSqlState(err, 'foreignKeyViolation'))
    throw new WebhookGone('the webhook was deleted before its delivery was recorded', {
      cause: err,
    });
  throw err;
}

const DELIVERIES = 'webhooks.deliveries';
const INSERT_ROWS = 5000;

export class DeliveryQueue {
  private readonly intake = new Batcher<NewDelivery[]>((events) => this.insert(events), {
    maxBatch: 500,
  });
  private readonly attempts: Batcher<FinishedAttempt>;
  private readonly firstAttempts: Batcher<FirstAttempt>;

  constructor(
    private readonly db: Knex,
    private readonly leaseMs: number,
  ) {
    this.attempts = new Batcher((items) => recordAttempts(db, items), { maxBatch: 500 });
    this.firstAttempts = new Batcher((items) => recordFirstAttempts(db, items), { maxBatch: 500 });
  }

  /**
   * Idempotent per (event, webhook): a redelivered event adds nothing. Resolves once the rows are
   * committed (the caller acks the event only then); concurrent calls share one INSERT. Rejects
   * with WebhookGone when a delivery's webhook was deleted meanwhile.
   */
  add(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return Promise.resolve();
    return this.intake.submit(deliveries).catch(goneIfOrphan);
  }

  private async insert(events: NewDelivery[][]): Promise<void> {
    const rows = events.flat().map((d) => ({
      id: d.id,
      webhook_id: d.webhookId,
      event_id: d.eventId,
      event_name: d.eventName,
      body: d.body,
      event_at: d.eventAt,
      expires_at: d.expiresAt,
      ...(d.nextAttemptAt ? { next_attempt_at: d.nextAttemptAt } : {}),
    }));
    // 7 parameters a row: chunks stay far below PostgreSQL's 65 535; a retry repeats none (idempotent)
    for (let at = 0; at < rows.length; at += INSERT_ROWS)
      await this.db(DELIVERIES)
        .insert(rows.slice(at, at + INSERT_ROWS))
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

  /**
   * Logs the attempt and moves the delivery on, atomically; resolves once committed. Attempts
   * finishing together share one statement (see recordAttempts.ts).
   */
  record(delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<void> {
    return this.attempts.submit({ delivery, attempt });
  }

  /**
   * Adds a delivery attempted before it had a row, with that attempt, atomically; resolves once
   * committed (see recordFirstAttempts.ts). Idempotent per (event, webhook) like add().
   */
  addAttempted(delivery: NewDelivery, attempt: AttemptRecord): Promise<void> {
    return this.firstAttempts.submit({ delivery, attempt }).catch(goneIfOrphan);
  }
}
