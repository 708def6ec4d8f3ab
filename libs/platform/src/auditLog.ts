// Rows of the platform's audit log (platform.audit_log, append-only): who did what to which
// subject, written in the transaction of the action itself. Details hold ids and counts only.
import type { Knex } from '@idv/db';

export interface AuditEntry {
  actor: string;
  action: string;
  communityId: string | null;
  subject: { kind: string; id: string };
  details?: Record<string, unknown>;
  at?: Date;
}

export async function appendAudit(db: Knex, entry: AuditEntry): Promise<void> {
  await db('platform.audit_log').insert({
    ...(entry.at ? { at: entry.at } : {}),
    actor: entry.actor,
    action: entry.action,
    community_id: entry.communityId,
    subject_kind: entry.subject.kind,
    subject_id: entry.subject.id,
    details: JSON.stringify(entry.details ?? {}),
  });
}
