// Records finished attempts in ONE statement: the attempt rows are inserted and their deliveries
// moved on (retry -> pending at its due time, else the final status) together, so a crash leaves
// either both or neither, as the former per-attempt transaction did, in one round trip not four.
import type { Knex } from '@idv/db';
import type { AttemptRecord, ClaimedDelivery } from './deliveryQueue.ts';

export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  attempt: AttemptRecord;
}

// A data-modifying CTE runs in the statement's transaction. The attempt number counts the rows
// already logged for the delivery (a redelivery keeps numbering on); only existing deliveries
// get an attempt row (a webhook deleted meanwhile cascaded its deliveries away).
const RECORD_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset(?::jsonb) AS i(
    id text, at timestamptz, status_code integer, latency_ms integer, outcome text, error text,
    next_attempt_at timestamptz, round_attempts integer)
), logged AS (
  INSERT INTO webhooks.attempts (delivery_id, attempt, at, status_code, latency_ms, outcome, error)
  SELECT i.id, (SELECT count(*) FROM webhooks.attempts a WHERE a.delivery_id = i.id) + 1,
         i.at, i.status_code, i.latency_ms, i.outcome, i.error
    FROM input i JOIN webhooks.deliveries d ON d.id = i.id
)
UPDATE webhooks.deliveries d
   SET status = CASE WHEN i.outcome = 'retry' THEN 'pending' ELSE i.outcome END,
       round_attempts = i.round_attempts,
       next_attempt_at = coalesce(i.next_attempt_at, now()),
       lease_until = NULL,
       completed_at = CASE WHEN i.outcome = 'retry' THEN NULL ELSE now() END
  FROM input i
 WHERE d.id = i.id`;

export async function recordAttempts(db: Knex, items: FinishedAttempt[]): Promise<void> {
  const rows = items.map(({ delivery, attempt }) => ({
    id: delivery.id,
    at: attempt.at.toISOString(),
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    outcome: attempt.outcome,
    error: attempt.error,
    next_attempt_at: attempt.nextAttemptAt?.toISOString() ?? null,
    round_attempts: delivery.roundAttempts + 1,
  }));
  await db.raw(RECORD_SQL, [JSON.stringify(rows)]);
}
