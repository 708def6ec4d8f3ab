// Shapes of the console's /api answers that its web app reads too: no imports, so the web app's
// DOM program can take them as they are (type-only).

/** One entry of the audit log as /api/audit answers it. */
export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  communityId: string | null;
  subject: { kind: string; id: string };
  details: Record<string, unknown>;
}
