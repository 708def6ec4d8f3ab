// The audit log for auditors and admins: a filtered page (GET /api/audit) and an export as CSV or
// JSON lines (GET /api/audit/export). Reading the log is itself audited: one row per page or
// export, with the filters used and the count (no values: they may name people's ids).
import { appendAudit } from '@idv/platform';
import type { Knex } from '@idv/db';
import type { Route } from '@idv/http';
import type { Request, Response } from 'express';
import { apiRoute, type ApiGuards } from '../access/apiRoute.ts';
import { listScope } from '../access/scope.ts';
import { sessionOf } from '../sessions/sessionGuard.ts';
import { AuditLogReader, type AuditFilter, type AuditRow } from '../store/auditLog.ts';
import { cursorFor, cursorOf, limitOf, oneOf, textOf, timeOf } from './queryParams.ts';

export const EXPORT_MAX_ROWS = 10_000;

function filterOf(req: Request, res: Response): AuditFilter {
  return {
    actor: textOf(req, 'actor'),
    action: textOf(req, 'action'),
    subjectKind: textOf(req, 'subjectKind'),
    subjectId: textOf(req, 'subjectId'),
    from: timeOf(req, 'from'),
    to: timeOf(req, 'to'),
    communities: listScope(req, res),
  };
}

const usedFilters = (req: Request) =>
  ['actor', 'action', 'community', 'subjectKind', 'subjectId', 'from', 'to'].filter(
    (name) => req.query[name],
  );

/** A seq of the chain: a positive whole number PostgreSQL's bigint takes as it is. */
const isSeqCursor = (value: unknown): value is { seq: number } => {
  const seq = (value as { seq?: unknown } | null)?.seq;
  return Number.isSafeInteger(seq) && (seq as number) > 0;
};

const CSV_COLUMNS = [
  'seq',
  'at',
  'actor',
  'action',
  'communityId',
  'subjectKind',
  'subjectId',
  'details',
];

/** One CSV field, quoted, with a leading formula character neutralised for spreadsheets. */
function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

const csvLine = (row: AuditRow) =>
  [
    row.seq,
    row.at,
    row.actor,
    row.action,
    row.communityId,
    row.subject.kind,
    row.subject.id,
    row.details,
  ]
    .map(csvField)
    .join(',');

export function auditRoutes(deps: { guards: ApiGuards; db: Knex }): Route[] {
  const reader = new AuditLogReader(deps.db);
  const audited = (req: Request, res: Response, action: string, details: Record<string, unknown>) =>
    appendAudit(deps.db, {
      actor: `operator:${sessionOf(res).username}`,
      action,
      communityId: listScope(req, res)?.length === 1 ? listScope(req, res)![0]! : null,
      subject: { kind: 'audit-log', id: 'platform' },
      details: { ...details, filters: usedFilters(req) },
    });

  return [
    apiRoute(deps.guards, 'GET /api/audit', async (req, res) => {
      const limit = limitOf(req);
      const before = cursorOf(req, isSeqCursor)?.seq;
      const items = await reader.list(filterOf(req, res), limit, before);
      await audited(req, res, 'console.audit.read', { rows: items.length });
      const last = items.at(-1);
      res.json({
        items,
        next: items.length === limit && last ? cursorFor({ seq: last.seq }) : null,
      });
    }),
    apiRoute(deps.guards, 'GET /api/audit/export', async (req, res) => {
      const format = oneOf(req, 'format', ['csv', 'jsonl'] as const) ?? 'csv';
      const items = await reader.list(filterOf(req, res), EXPORT_MAX_ROWS);
      await audited(req, res, 'console.audit.exported', { rows: items.length, format });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      res.set('Content-Disposition', `attachment; filename="audit-${stamp}.${format}"`);
      if (format === 'jsonl') {
        res
          .type('application/x-ndjson')
          .send(items.map((row) => JSON.stringify(row)).join('\n') + '\n');
        return;
      }
      res
        .type('text/csv')
        .send([CSV_COLUMNS.join(','), ...items.map(csvLine)].join('\r\n') + '\r\n');
    }),
  ];
}
