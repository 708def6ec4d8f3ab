// Connector calls per minute (docverify.connector_minutes): each flush of a replica adds its counts
// to the rows of their minutes in one upsert, so replicas add to the same rows without reading them;
// the retention sweep deletes the minutes past their time.
import type { Knex } from '@idv/db';
import { LATENCY_BOUNDS_MS, type MinuteCounts, type MinuteKey } from './connectorCallStats.ts';

const TABLE = 'docverify.connector_minutes';
const KEY = ['community_id', 'minute', 'verifier_tag', 'kind', 'connector_type'];
const BUCKETS = [...LATENCY_BOUNDS_MS.map((bound) => `le_${bound}_ms`), 'over_5000_ms'];
const SUMMED = ['calls', 'errors', 'timeouts', 'refusals', 'busy', 'total_ms', ...BUCKETS];

export interface MinuteRow {
  key: MinuteKey;
  counts: MinuteCounts;
}

/** In the primary key's order: concurrent upserts of replicas lock shared rows in one order. */
const byKey = (a: MinuteRow, b: MinuteRow) =>
  a.key.communityId.localeCompare(b.key.communityId) ||
  a.key.minute.getTime() - b.key.minute.getTime() ||
  a.key.verifierTag.localeCompare(b.key.verifierTag) ||
  a.key.kind.localeCompare(b.key.kind) ||
  a.key.connectorType.localeCompare(b.key.connectorType);

export class ConnectorMinuteStore {
  constructor(private readonly db: Knex) {}

  /** Adds each row's counts to its minute's row (created when missing). */
  async add(rows: MinuteRow[]): Promise<void> {
    if (rows.length === 0) return;
    const values = [...rows].sort(byKey).map(({ key, counts }) => ({
      community_id: key.communityId,
      minute: key.minute,
      verifier_tag: key.verifierTag,
      kind: key.kind,
      connector_type: key.connectorType,
      calls: counts.calls,
      errors: counts.errors,
      timeouts: counts.timeouts,
      refusals: counts.refusals,
      busy: counts.busy,
      total_ms: counts.totalMs,
      max_ms: counts.maxMs,
      ...Object.fromEntries(BUCKETS.map((column, i) => [column, counts.buckets[i] ?? 0])),
    }));
    const merge = Object.fromEntries([
      ...SUMMED.map((c) => [c, this.db.raw('?? + excluded.??', [`connector_minutes.${c}`, c])]),
      ['max_ms', this.db.raw('greatest(connector_minutes.max_ms, excluded.max_ms)')],
    ]);
    await this.db(TABLE).insert(values).onConflict(KEY).merge(merge);
  }

  /** Deletes the minutes before `before`; returns how many rows went. */
  async sweep(before: Date): Promise<number> {
    return this.db(TABLE).where('minute', '<', before).delete();
  }
}
