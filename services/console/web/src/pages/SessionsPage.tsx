// Verification sessions: states, times, attempts and ids (no personal data).
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { SESSION_STATES } from '@idv/contracts/sessionStates';
import { api, query } from '../api.ts';
import { DataTable, time } from '../DataTable.tsx';

interface SessionRow {
  sessionId: string;
  status: string;
  dvcId: string;
  documentType: string | null;
  attempts: Record<string, number>;
  createdAt: string;
  endedAt: string | null;
}

const columns: ColumnDef<SessionRow, unknown>[] = [
  {
    header: 'Session',
    accessorKey: 'sessionId',
    cell: (c) => <code>{c.row.original.sessionId.slice(0, 8)}</code>,
  },
  { header: 'State', accessorKey: 'status' },
  { header: 'Config', accessorKey: 'dvcId' },
  {
    header: 'Document',
    accessorKey: 'documentType',
    cell: (c) => c.row.original.documentType ?? '—',
  },
  {
    header: 'Attempts',
    id: 'attempts',
    accessorFn: (r) => Object.values(r.attempts).reduce((a, b) => a + b, 0),
  },
  { header: 'Created', accessorKey: 'createdAt', cell: (c) => time(c.row.original.createdAt) },
  { header: 'Ended', accessorKey: 'endedAt', cell: (c) => time(c.row.original.endedAt) },
];

export function SessionsPage() {
  const [status, setStatus] = useState('');
  const sessions = useQuery({
    queryKey: ['sessions', status],
    queryFn: () => api<{ items: SessionRow[] }>(`/sessions${query({ status })}`),
  });
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          State
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {SESSION_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </form>
      <DataTable
        caption="Sessions, newest first"
        rows={sessions.data?.items ?? []}
        columns={columns}
      />
    </section>
  );
}
