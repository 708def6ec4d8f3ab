// The console's analytics, computed in SQL from the verification runs (and the review cases when
// that table exists): pass rate and volume per day, time to a result, per verifier and connector
// type the latency and errors the gateway records per minute (connectorLatency.ts), why runs failed
// and the webhook attempts.
import type { Knex } from '@idv/db';
import { connectorLatency } from './connectorLatency.ts';

export interface AnalyticsQuery {
  days: number;
  communities: string[] | undefined;
}

const scoped = (communities: string[] | undefined, column = 'community_id') =>
  communities
    ? { sql: ` AND ${column} = ANY(?::uuid[])`, bindings: [communities] }
    : { sql: '', bindings: [] };

export async function analytics(db: Knex, query: AnalyticsQuery) {
  const scope = scoped(query.communities);
  const since = [`${query.days} days`];
  const daily = await db.raw(
    `SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day,
            count(*)::int AS runs,
            count(*) FILTER (WHERE status = 'completed')::int AS completed,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status IN ('processing', 'pending'))::int AS in_progress
       FROM docverify.verification_runs
      WHERE created_at >= now() - ?::interval${scope.sql}
      GROUP BY 1 ORDER BY 1`,
    [...since, ...scope.bindings],
  );
  const timing = await db.raw(
    `SELECT kind,
            count(*)::int AS ended,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - created_at)) AS median_s,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - created_at)) AS p95_s
       FROM docverify.verification_runs
      WHERE ended_at IS NOT NULL AND created_at >= now() - ?::interval${scope.sql}
      GROUP BY kind ORDER BY kind`,
    [...since, ...scope.bindings],
  );
  return {
    days: query.days,
    daily: (daily.rows as Record<string, unknown>[]).map((r) => ({
      day: r.day as string,
      runs: r.runs as number,
      completed: r.completed as number,
      failed: r.failed as number,
      inProgress: r.in_progress as number,
      passRate: (r.runs as number) ? (r.completed as number) / (r.runs as number) : null,
    })),
    timeToResult: (timing.rows as Record<string, unknown>[]).map((r) => ({
      kind: r.kind as string,
      ended: r.ended as number,
      medianSeconds: r.median_s === null ? null : Number(r.median_s),
      p95Seconds: r.p95_s === null ? null : Number(r.p95_s),
    })),
    connectors: await connectorFigures(db, query),
    review: await reviewFigures(db, query),
  };
}

/** Connector calls' latency and errors, why runs failed, and the webhook attempts' latency and errors. */
async function connectorFigures(db: Knex, query: AnalyticsQuery) {
  const runs = scoped(query.communities);
  const failures = await db.raw(
    `SELECT coalesce(split_part(failure, ':', 1), 'unknown') AS reason, count(*)::int AS runs
       FROM docverify.verification_runs
      WHERE status = 'failed' AND created_at >= now() - ?::interval${runs.sql}
      GROUP BY 1 ORDER BY 2 DESC LIMIT 10`,
    [`${query.days} days`, ...runs.bindings],
  );
  const hooks = scoped(query.communities, 'w.community_id');
  const webhooks = await db.raw(
    `SELECT d.event_name AS event, count(*)::int AS attempts,
            count(*) FILTER (WHERE a.outcome <> 'succeeded')::int AS errors,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY a.latency_ms) AS median_ms,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY a.latency_ms) AS p95_ms
       FROM webhooks.attempts a
       JOIN webhooks.deliveries d ON d.id = a.delivery_id
       JOIN webhooks.webhooks w ON w.id = d.webhook_id
      WHERE a.at >= now() - ?::interval${hooks.sql}
      GROUP BY 1 ORDER BY 2 DESC LIMIT 20`,
    [`${query.days} days`, ...hooks.bindings],
  );
  return {
    calls: await connectorLatency(db, query.days, query.communities),
    runFailures: failures.rows as { reason: string; runs: number }[],
    webhookAttempts: (webhooks.rows as Record<string, unknown>[]).map((r) => ({
      event: r.event as string,
      attempts: r.attempts as number,
      errors: r.errors as number,
      medianMs: r.median_ms === null ? null : Number(r.median_ms),
      p95Ms: r.p95_ms === null ? null : Number(r.p95_ms),
    })),
  };
}

/** Time to decision of review cases, when the review cases table exists. */
async function reviewFigures(db: Knex, query: AnalyticsQuery) {
  const exists = await db.raw(
    `SELECT to_regclass('docverify.review_cases') IS NOT NULL AS present`,
  );
  if (!(exists.rows[0] as { present: boolean }).present) return null;
  const scope = scoped(query.communities);
  const rows = await db
    .raw(
      `SELECT count(*)::int AS decided,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - opened_at)) AS median_s
       FROM docverify.review_cases
      WHERE decided_at IS NOT NULL AND opened_at >= now() - ?::interval${scope.sql}`,
      [`${query.days} days`, ...scope.bindings],
    )
    .catch(() => undefined);
  const row = rows?.rows[0] as { decided: number; median_s: number | null } | undefined;
  return row
    ? {
        decided: row.decided,
        medianSecondsToDecision: row.median_s === null ? null : Number(row.median_s),
      }
    : null;
}
