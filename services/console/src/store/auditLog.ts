// Reads of platform.audit_log for the console: filtered, newest first, keyset-paginated by the
// chain's seq (one index), inside the communities the operator may see (rows of no community only
// for an operator of every community).
import type { Knex } from '@idv/db';
import type { AuditRow } from '../apiTypes.ts';

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  subjectKind?: string | undefined;
  subjectId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** undefined: every community */
  communities?: string[] | undefined;
}

export type { AuditRow };

interface Row {
  seq: string;
  at: Date;
  actor: string;
  action: string;
  community_id: string | null;
  subject_kind: string;
  subject_id: string;
  details: Record<string, unknown>;
}

export class AuditLogReader {
  constructor(private readonly db: Knex) {}

  /** Up to `limit` entries before seq `before` (newest first). */
  async list(filter: AuditFilter, limit: number, before?: number): Promise<AuditRow[]> {
    const query = this.db('platform.audit_log')
      .select(
        'seq',
        'at',
        'actor',
        'action',
        'community_id',
        'subject_kind',
        'subject_id',
        'details',
      )
      .whereNotNull('seq')
      .orderBy('seq', 'desc')
      .limit(limit);
    if (filter.actor) query.where('actor', filter.actor);
    if (filter.action) query.where('action', filter.action);
    if (filter.subjectKind) query.where('subject_kind', filter.subjectKind);
    if (filter.subjectId) query.where('subject_id', filter.subjectId);
    if (filter.from) query.where('at', '>=', filter.from);
    if (filter.to) query.where('at', '<', filter.to);
    if (filter.communities) query.whereIn('community_id', filter.communities);
    if (before !== undefined) query.where('seq', '<', before);
    const rows = (await query) as Row[];
    return rows.map((row) => ({
      seq: Number(row.seq),
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action,
      communityId: row.community_id,
      subject: { kind: row.subject_kind, id: row.subject_id },
      details: row.details,
    }));
  }
}
