// Webhooks with their delivery log; admins redeliver.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { time } from '../DataTable.tsx';
import { can, useMe } from '../Session.tsx';

interface Webhook {
  webhookId: string;
  name: string;
  target: string | null;
  disabled: boolean;
}

interface Delivery {
  deliveryId: string;
  eventName: string;
  status: string;
  attempts: number;
  createdAt: string;
}

export function WebhooksPage() {
  const { me } = useMe();
  const [open, setOpen] = useState<string>();
  const client = useQueryClient();
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => api<{ items: Webhook[] }>('/webhooks') }); // prettier-ignore
  const deliveries = useQuery({ queryKey: ['deliveries', open], queryFn: () => api<{ items: Delivery[] }>(`/webhooks/${open}/deliveries`), enabled: !!open }); // prettier-ignore
  const redeliver = useMutation({
    mutationFn: (id: string) =>
      api(`/webhooks/${open}/deliveries/${id}/redeliver`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <ul className="cards">
        {(hooks.data?.items ?? []).map((h) => (
          <li key={h.webhookId}>
            <strong>{h.name}</strong> {h.disabled ? '(disabled)' : ''} <code>{h.target}</code>{' '}
            <button
              type="button"
              aria-expanded={open === h.webhookId}
              onClick={() => setOpen(open === h.webhookId ? undefined : h.webhookId)}
            >
              Deliveries
            </button>
          </li>
        ))}
        {hooks.data?.items.length === 0 ? <li>No webhooks.</li> : null}
      </ul>
      {open && deliveries.data ? (
        <table>
          <caption>Deliveries of the webhook, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.items.map((d) => (
              <tr key={d.deliveryId}>
                <td>{d.eventName}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{time(d.createdAt)}</td>
                <td>
                  {can(me, 'admin') ? (
                    <button type="button" onClick={() => redeliver.mutate(d.deliveryId)}>
                      Redeliver
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {redeliver.error ? (
        <p role="alert" className="error">
          {redeliver.error.message}
        </p>
      ) : null}
    </section>
  );
}
