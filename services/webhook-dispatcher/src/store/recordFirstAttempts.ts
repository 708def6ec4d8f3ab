// Records deliveries attempted straight from their event in ONE statement: the delivery row is
// inserted already in its outcome's state (retry -> pending at its due time, else final) together
// with its first attempt, so a crash leaves both or neither. A delivery already in the table (the
// same event published twice) is left alone and gets no attempt row.
import { runPrepared, type Knex, type PreparedStatement } from '@idv/db';
import type { AttemptRecord, NewDelivery } from './deliveryQueue.ts';

export interface FirstAttempt {
  delivery: NewDelivery;
  attempt: AttemptRecord;
}

// json, not jsonb: the rows are read once, and the callback bodies are the bulk of the text.
// Prepared: it is the statement of nearly every event.
const RECORD_FIRST: PreparedStatement = {
  name: 'webhooks_record_first_attempts',
  text: `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS i(
    id text, webhook_id uuid, event_id text, event_name text, body text, event_at timestamptz,
    expires_at timestamptz, at timestamptz, status_code integer, latency_ms integer,
    outcome text, error text, next_attempt_at timestamptz)
), made AS (
  INSERT INTO webhooks.deliveries (id, webhook_id, event_id, event_name, body, status,
                                   round_attempts, next_attempt_at, event_at, expires_at,
                                   completed_at)
  SELECT id, webhook_id, event_id, event_name, body,
         CASE WHEN outcome = 'retry' THEN 'pending' ELSE outcome END, 1,
         coalesce(next_attempt_at, now()), event_at, expires_at,
         CASE WHEN outcome = 'retry' THEN NULL ELSE now() END
    FROM input
  ON CONFLICT (event_id, webhook_id) DO NOTHING
  RETURNING id
)
INSERT INTO webhooks.attempts (delivery_id, attempt, at, status_code, latency_ms, outcome, error)
SELECT i.id, 1, i.at, i.status_code, i.latency_ms, i.outcome, i.error
  FROM input i JOIN made m ON m.id = i.id`,
};

export async function recordFirstAttempts(db: Knex, items: FirstAttempt[]): Promise<void> {
  const rows = items.map(({ delivery, attempt }) => ({
    id: delivery.id,
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    event_name: delivery.eventName,
    body: delivery.body,
    event_at: delivery.eventAt.toISOString(),
    expires_at: delivery.expiresAt?.toISOString() ?? null,
    at: attempt.at.toISOString(),
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    outcome: attempt.outcome,
    error: attempt.error,
    next_attempt_at: attempt.nextAttemptAt?.toISOString() ?? null,
  }));
  await runPrepared(db, RECORD_FIRST, [JSON.stringify(rows)]);
}
