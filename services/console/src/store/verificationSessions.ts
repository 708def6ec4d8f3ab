// Reads of docverify.sessions for the console: states, times, attempts and ids only (the sealed
// request and every image stay unselected), newest first, keyset-paginated by (created_at, id).
import type { Knex } from '@idv/db';

export interface SessionListFilter {
  status?: string | undefined;
  communities?: string[] | undefined;
}

export interface SessionCursor {
  at: string;
  id: string;
}

const COLUMNS = [
  'id',
  'community_id',
  'dvc_id',
  'status',
  'journey_type',
  'document_type',
  'attempts',
  'run_id',
  'failure',
  'created_at',
  'opened_at',
  'submitted_at',
  'ended_at',
  'expires_at',
] as const;

export async function listSessions(
  db: Knex,
  filter: SessionListFilter,
  limit: number,
  after?: SessionCursor,
) {
  const query = db('docverify.sessions')
    .select(COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if (filter.status) query.where('status', filter.status);
  if (filter.communities) query.whereIn('community_id', filter.communities);
  if (after) query.whereRaw('(created_at, id) < (?, ?)', [after.at, after.id]);
  const rows = (await query) as Record<(typeof COLUMNS)[number], unknown>[];
  return rows.map((row) => ({
    sessionId: row.id as string,
    communityId: row.community_id as string,
    dvcId: row.dvc_id as string,
    status: row.status as string,
    journeyType: row.journey_type as string,
    documentType: row.document_type as string | null,
    attempts: row.attempts as Record<string, number>,
    verificationId: row.run_id as string | null,
    failure: row.failure as string | null,
    createdAt: (row.created_at as Date).toISOString(),
    openedAt: (row.opened_at as Date | null)?.toISOString() ?? null,
    submittedAt: (row.submitted_at as Date | null)?.toISOString() ?? null,
    endedAt: (row.ended_at as Date | null)?.toISOString() ?? null,
    expiresAt: (row.expires_at as Date).toISOString(),
  }));
}
