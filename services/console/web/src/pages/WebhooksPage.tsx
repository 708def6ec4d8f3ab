// Webhooks (target without its query, events, retries) each with its delivery log beneath it: the
// last attempt's answer says why one failed; admins redeliver.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { breakable, time } from '../DataTable.tsx';
import { can, communityName, useMe } from '../Session.tsx';

interface Webhook {
  webhookId: string;
  communityId: string;
  name: string;
  target: string | null;
  disabled: boolean;
  eventNames: string[];
  retryCount: number;
}

interface Delivery {
  deliveryId: string;
  eventName: string;
  status: string;
  attempts: number;
  lastAttempt: { statusCode: number | null; latencyMs: number; error: string | null } | null;
  createdAt: string;
}

/** "HTTP 500 in 42 ms: the error", or a dash before any attempt. */
const attemptOf = (a: Delivery['lastAttempt']) =>
  a
    ? `${a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`} in ${a.latencyMs} ms${a.error ? `: ${a.error}` : ''}`
    : '—';

function Deliveries({ hook }: { hook: Webhook }) {
  const { me } = useMe();
  const client = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['deliveries', hook.webhookId],
    queryFn: () => api<{ items: Delivery[] }>(`/webhooks/${hook.webhookId}/deliveries`),
  });
  const redeliver = useMutation({
    mutationFn: (id: string) =>
      api(`/webhooks/${hook.webhookId}/deliveries/${id}/redeliver`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['deliveries', hook.webhookId] }),
  });
  if (deliveries.error)
    return (
      <p role="alert" className="error">
        {deliveries.error.message}
      </p>
    );
  if (!deliveries.data) return <p>Loading…</p>;
  if (deliveries.data.items.length === 0) return <p className="hint">No delivery yet.</p>;
  return (
    <div className="table-wrap">
      <table className="stack">
        <caption>Deliveries to {hook.name}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last attempt</th>
            <th scope="col">Created</th>
            {can(me, 'admin') ? <th scope="col">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {deliveries.data.items.map((d) => (
            <tr key={d.deliveryId}>
              <td data-label="Event">{breakable(d.eventName)}</td>
              <td data-label="Status">
                <span className={`badge ${d.status}`}>{d.status}</span>
              </td>
              <td data-label="Attempts">{d.attempts}</td>
              <td data-label="Last attempt">{attemptOf(d.lastAttempt)}</td>
              <td data-label="Created">{time(d.createdAt)}</td>
              {can(me, 'admin') ? (
                <td data-label="Action">
                  <button type="button" onClick={() => redeliver.mutate(d.deliveryId)}>
                    Redeliver
                    <span className="visually-hidden">
                      {' '}
                      {d.eventName} of {time(d.createdAt)}
                    </span>
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {redeliver.isSuccess ? (
        <p role="status">Queued again: the dispatcher sends it shortly.</p>
      ) : null}
      {redeliver.error ? (
        <p role="alert" className="error">
          {redeliver.error.message}
        </p>
      ) : null}
    </div>
  );
}

export function WebhooksPage() {
  const { communities } = useMe();
  const [open, setOpen] = useState<string>();
  const hooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: () => api<{ items: Webhook[] }>('/webhooks'),
  });
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {hooks.error ? (
        <p role="alert" className="error">
          {hooks.error.message}
        </p>
      ) : null}
      {hooks.data?.items.length === 0 ? <p className="empty">No webhook is registered.</p> : null}
      <ul className="cards">
        {(hooks.data?.items ?? []).map((h) => (
          <li key={h.webhookId}>
            <h2 className="card-title">
              {h.name}{' '}
              <span className={`badge ${h.disabled ? 'disabled' : 'active'}`}>
                {h.disabled ? 'disabled' : 'active'}
              </span>
            </h2>
            <dl className="facts">
              <dt>Target</dt>
              <dd>
                <code className="long">{h.target ?? '—'}</code>
              </dd>
              <dt>Events</dt>
              <dd>{h.eventNames.join(', ')}</dd>
              <dt>Community</dt>
              <dd>{communityName(communities, h.communityId)}</dd>
              <dt>Retries</dt>
              <dd>{h.retryCount}</dd>
            </dl>
            <button
              type="button"
              className="secondary"
              aria-expanded={open === h.webhookId}
              aria-controls={`deliveries-${h.webhookId}`}
              onClick={() => setOpen(open === h.webhookId ? undefined : h.webhookId)}
            >
              {open === h.webhookId ? 'Hide deliveries' : 'Show deliveries'}
              <span className="visually-hidden"> of {h.name}</span>
            </button>
            <div id={`deliveries-${h.webhookId}`} className="deliveries">
              {open === h.webhookId ? <Deliveries hook={h} /> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
