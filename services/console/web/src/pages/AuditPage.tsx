// The audit log (auditors and admins): filters, pages newest first, export as CSV or JSON lines.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, query } from '../api.ts';
import type { AuditRow } from '../../../src/apiTypes.ts';
import { DataTable, time } from '../DataTable.tsx';

const columns: ColumnDef<AuditRow, unknown>[] = [
  { header: '#', accessorKey: 'seq' },
  { header: 'When', accessorKey: 'at', cell: (c) => time(c.row.original.at) },
  { header: 'Who', accessorKey: 'actor', cell: (c) => <Breakable text={c.row.original.actor} /> },
  {
    header: 'Action',
    accessorKey: 'action',
    cell: (c) => <Breakable text={c.row.original.action} />,
  },
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
  {
    header: 'Details',
    id: 'details',
    enableSorting: false,
    cell: (c) => <Details details={c.row.original.details} />,
  },
];

/** Names like case.image.read or operator:some-name, wrapped at their dots, colons and dashes. */
function Breakable({ text }: { text: string }) {
  return (
    <>
      {text.split(/(?<=[.:-])/).map((part, i) => (
        <span key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </span>
      ))}
    </>
  );
}

/** A value of the details, in words: lists joined, objects as name=value. */
const shown = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(shown).join(', ')
    : value && typeof value === 'object'
      ? Object.entries(value)
          .map(([k, v]) => `${k}=${shown(v)}`)
          .join(', ')
      : String(value);

/** The details (ids and counts, never personal data) a line each. */
function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <>—</>;
  return (
    <dl className="details">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{shown(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AuditPage() {
  const [form, setForm] = useState({ actor: '', action: '', subjectId: '', from: '', to: '' });
  const [filters, setFilters] = useState(form);
  const pages = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) =>
      api<{ items: AuditRow[]; next: string | null }>(
        `/audit${query({ ...filters, cursor: pageParam })}`,
      ),
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
        <div className="filter-actions">
          <button type="submit">Filter</button>
          <a className="button" href={`/api/audit/export${query({ ...filters, format: 'csv' })}`}>
            Export CSV
          </a>
          <a className="button" href={`/api/audit/export${query({ ...filters, format: 'jsonl' })}`}>
            Export JSON lines
          </a>
        </div>
      </form>
      {pages.error ? (
        <p role="alert" className="error">
          {pages.error.message}
        </p>
      ) : null}
      <DataTable
        caption="Audit entries, newest first"
        className="audit"
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
