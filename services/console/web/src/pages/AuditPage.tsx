// The audit log (auditors and admins): filters, pages newest first, export as CSV or JSON lines.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, query } from '../api.ts';
import { DataTable, time } from '../DataTable.tsx';

interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  communityId: string | null;
  subject: { kind: string; id: string };
  details: Record<string, unknown>;
}

const columns: ColumnDef<AuditRow, unknown>[] = [
  { header: '#', accessorKey: 'seq' },
  { header: 'When', accessorKey: 'at', cell: (c) => <span className="nowrap">{time(c.row.original.at)}</span> }, // prettier-ignore
  { header: 'Who', accessorKey: 'actor' },
  { header: 'Action', accessorKey: 'action' },
  {
    header: 'Subject',
    id: 'subject',
    accessorFn: (r) => `${r.subject.kind} ${r.subject.id}`,
    cell: (c) => (
      <>
        {c.row.original.subject.kind}
        <code className="subject-id">{c.row.original.subject.id}</code>
      </>
    ),
  },
  { header: 'Details', id: 'details', enableSorting: false, cell: (c) => <code>{JSON.stringify(c.row.original.details)}</code> }, // prettier-ignore
];

export function AuditPage() {
  const [form, setForm] = useState({ actor: '', action: '', subjectId: '', from: '', to: '' });
  const [filters, setFilters] = useState(form);
  const pages = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) => api<{ items: AuditRow[]; next: string | null }>(`/audit${query({ ...filters, cursor: pageParam })}`), // prettier-ignore
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const field = (name: keyof typeof form, label: string, type = 'text') => (
    <label>
      {label}
      <input
        type={type}
        value={form[name]}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    </label>
  );
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(form);
        }}
      >
        {field('actor', 'Actor')}
        {field('action', 'Action')}
        {field('subjectId', 'Subject id')}
        {field('from', 'From', 'date')}
        {field('to', 'To', 'date')}
        <button type="submit">Filter</button>
        <a className="button" href={`/api/audit/export${query({ ...filters, format: 'csv' })}`}>
          Export CSV
        </a>
        <a className="button" href={`/api/audit/export${query({ ...filters, format: 'jsonl' })}`}>
          Export JSON lines
        </a>
      </form>
      {pages.error ? (
        <p role="alert" className="error">
          {pages.error.message}
        </p>
      ) : null}
      <DataTable
        caption="Audit entries, newest first"
        rows={pages.data?.pages.flatMap((p) => p.items) ?? []}
        columns={columns}
      />
      {pages.hasNextPage ? (
        <button type="button" onClick={() => void pages.fetchNextPage()}>
          Load more
        </button>
      ) : null}
    </section>
  );
}
