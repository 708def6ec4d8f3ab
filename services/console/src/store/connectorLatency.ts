// Per-connector latency and errors over a window, from the minutes the docverify gateway records
// (docverify.connector_minutes: counts and a fixed histogram of durations per minute): per
// community, verifier and connector type, the error rate, the average and max, and p50/p95
// estimated from the histogram (linear within a bucket, never above the max seen).
import type { Knex } from '@idv/db';

/** The gateway's histogram: upper bounds (ms) of its columns le_<bound>_ms, then over_5000_ms. */
const BOUNDS = [100, 250, 500, 1000, 2500, 5000];
const BUCKETS = [...BOUNDS.map((b) => `le_${b}_ms`), 'over_5000_ms'];

/** The `q` quantile of a histogram's calls (ms), linear within its bucket; null without calls. */
export function quantileOf(buckets: number[], maxMs: number, q: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (const [i, n] of buckets.entries()) {
    if (n > 0 && below + n >= rank) {
      const low = i === 0 ? 0 : BOUNDS[i - 1]!;
      const high = Math.min(BOUNDS[i] ?? maxMs, maxMs);
      return Math.min(maxMs, low + ((rank - below) / n) * Math.max(0, high - low));
    }
    below += n;
  }
  return maxMs;
}

export async function connectorLatency(db: Knex, days: number, communities: string[] | undefined) {
  const exists = await db.raw(
    `SELECT to_regclass('docverify.connector_minutes') IS NOT NULL AS present`,
  );
  if (!(exists.rows[0] as { present: boolean }).present) return [];
  const scope = communities
    ? { sql: ' AND m.community_id = ANY(?::uuid[])', bindings: [communities] }
    : { sql: '', bindings: [] };
  const sums = BUCKETS.map((b) => `sum(m.${b})::bigint AS ${b}`).join(', ');
  const result = await db.raw(
    `SELECT m.community_id, c.name AS community, m.verifier_tag, m.connector_type,
            string_agg(DISTINCT m.kind, ',' ORDER BY m.kind) AS kinds,
            sum(m.calls)::bigint AS calls, sum(m.errors)::bigint AS errors,
            sum(m.timeouts)::bigint AS timeouts, sum(m.refusals)::bigint AS refusals,
            sum(m.busy)::bigint AS busy, sum(m.total_ms)::bigint AS total_ms, max(m.max_ms) AS max_ms,
            ${sums}
       FROM docverify.connector_minutes m
       LEFT JOIN platform.communities c ON c.id = m.community_id
      WHERE m.minute >= now() - ?::interval${scope.sql}
      GROUP BY 1, 2, 3, 4 ORDER BY sum(m.calls) DESC, 3 LIMIT 100`,
    [`${days} days`, ...scope.bindings],
  );
  return (result.rows as Record<string, unknown>[]).map((r) => {
    const calls = Number(r.calls);
    const maxMs = Number(r.max_ms);
    const buckets = BUCKETS.map((b) => Number(r[b]));
    const failed = Number(r.errors) + Number(r.timeouts);
    return {
      communityId: r.community_id as string,
      community: (r.community as string | null) ?? (r.community_id as string),
      verifier: r.verifier_tag as string,
      connectorType: r.connector_type as string,
      kinds: (r.kinds as string).split(','),
      calls,
      errors: Number(r.errors),
      timeouts: Number(r.timeouts),
      refusals: Number(r.refusals),
      busy: Number(r.busy),
      /** provider errors and timeouts, of every call */
      errorRate: calls ? failed / calls : null,
      averageMs: calls ? Number(r.total_ms) / calls : null,
      maxMs: calls ? maxMs : null,
      p50Ms: quantileOf(buckets, maxMs, 0.5),
      p95Ms: quantileOf(buckets, maxMs, 0.95),
    };
  });
}
