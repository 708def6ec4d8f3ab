// The review queue: filters by community, state, assignee and SLA, and claim.
import { REVIEW_CASE_STATES } from '@idv/contracts/reviewCaseStates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, query } from '../api.ts';
import { DataTable, time } from '../DataTable.tsx';
import { href } from '../route.ts';
import { can, useMe } from '../Session.tsx';

interface CaseSummary {
  caseId: string;
  state: string;
  verificationId: string;
  sessionId: string | null;
  openedAt: string;
  dueAt: string | null;
  assignee: string | null;
}

const STATES = REVIEW_CASE_STATES;

export function QueuePage() {
  const { me, communities } = useMe();
  // the first community until one is chosen (the list may arrive after the page shows)
  const [chosen, setCommunity] = useState<string>();
  const community = chosen ?? communities[0]?.id ?? '';
  const [state, setState] = useState('');
  const [assignee, setAssignee] = useState('');
  const [overdue, setOverdue] = useState(false);
  const client = useQueryClient();
  // the gateway filters on the operator's username; the history and audit log write actors as
  // operator:<username>, so one copied from there is taken too
  const filters = {
    state,
    assignee: assignee.trim().replace(/^operator:/, ''),
    overdue: overdue ? 'true' : undefined,
  };
  const cases = useQuery({
    queryKey: ['queue', community, filters],
    queryFn: () =>
      api<{ items: CaseSummary[] }>(`/review/community/${community}/cases${query(filters)}`),
    enabled: !!community,
  });
  const claim = useMutation({
    mutationFn: (caseId: string) =>
      api(`/review/community/${community}/cases/${caseId}/claim`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['queue'] }),
  });
  const columns: ColumnDef<CaseSummary, unknown>[] = [
    {
      header: 'Case',
      accessorKey: 'caseId',
      cell: (c) => (
        <a href={href('case', community, c.row.original.caseId)}>
          {c.row.original.caseId.slice(0, 8)}
        </a>
      ),
    },
    {
      header: 'State',
      accessorKey: 'state',
      cell: (c) => (
        <span className={`badge ${c.row.original.state}`}>
          {c.row.original.state.replace(/_/g, ' ')}
        </span>
      ),
    },
    { header: 'Opened', accessorKey: 'openedAt', cell: (c) => time(c.row.original.openedAt) },
    { header: 'Due', accessorKey: 'dueAt', cell: (c) => time(c.row.original.dueAt) },
    { header: 'Assignee', accessorKey: 'assignee', cell: (c) => c.row.original.assignee ?? '—' },
    {
      header: 'Action',
      id: 'action',
      enableSorting: false,
      cell: (c) =>
        can(me, 'reviewer', 'senior_reviewer', 'admin') && c.row.original.state === 'open' ? (
          <button
            type="button"
            onClick={() => claim.mutate(c.row.original.caseId)}
            aria-label={`Claim case ${c.row.original.caseId.slice(0, 8)}`}
          >
            Claim
          </button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Review queue</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Community
          <select value={community} onChange={(e) => setCommunity(e.target.value)}>
            {communities.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.target.value)}>
            <option value="">Any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee
          <input
            value={assignee}
            onChange={(e) => setAssignee(e.target.value)}
            placeholder="an operator's username"
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={overdue} onChange={(e) => setOverdue(e.target.checked)} />
          Past SLA only
        </label>
      </form>
      {claim.error ? (
        <p role="alert" className="error">
          {claim.error.message}
        </p>
      ) : null}
      {cases.error ? (
        <p role="alert" className="error">
          {cases.error.message}
        </p>
      ) : null}
      <DataTable
        caption="Cases waiting for review, oldest first"
        rows={cases.data?.items ?? []}
        columns={columns}
        empty={cases.isLoading ? 'Loading…' : 'No case matches.'}
      />
    </section>
  );
}
