// The decision form: approve, decline or ask for a resubmission, with a reason code from the
// taxonomy (only the codes that fit the decision) and an optional note. In a four-eyes case a
// second, different operator confirms or overrides; the gateway enforces who may.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import type { ReviewCase } from './CasePage.tsx';

interface Reason {
  code: string;
  decisions: string[];
  internal: string;
  person: { en: string };
  needsNote: boolean;
}

export function DecisionForm(props: { base: string; review: ReviewCase; onDone: () => void }) {
  const reasons = useQuery({
    queryKey: ['reasons'],
    queryFn: () => api<{ reasons: Reason[] }>('/review/reasons'),
  });
  const [decision, setDecision] = useState('approve');
  const [reasonCode, setReasonCode] = useState('');
  const [note, setNote] = useState('');
  const decide = useMutation({
    mutationFn: () =>
      api<{ resubmission?: { url: string } }>(`${props.base}/decision`, {
        method: 'POST',
        body: { decision, reasonCode, ...(note ? { note } : {}) },
      }),
    onSuccess: props.onDone,
  });
  const fitting = (reasons.data?.reasons ?? []).filter((r) => r.decisions.includes(decision));
  const second = props.review.state === 'awaiting_second';
  return (
    <section aria-labelledby="decide-title">
      <h2 id="decide-title">{second ? 'Second review (four-eyes)' : 'Decision'}</h2>
      {second ? (
        <p>
          A first decision is recorded: confirm it or override it. You must not be the first
          reviewer.
        </p>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          decide.mutate();
        }}
      >
        <fieldset>
          <legend>Outcome</legend>
          {['approve', 'decline', 'resubmit'].map((d) => (
            <label key={d} className="check">
              <input
                type="radio"
                name="decision"
                value={d}
                checked={decision === d}
                onChange={() => {
                  setDecision(d);
                  setReasonCode('');
                }}
              />
              {d === 'resubmit' ? 'Ask for a resubmission' : d[0]!.toUpperCase() + d.slice(1)}
            </label>
          ))}
        </fieldset>
        <label htmlFor="reason">Reason</label>
        <select
          id="reason"
          required
          value={reasonCode}
          onChange={(e) => setReasonCode(e.target.value)}
        >
          <option value="">Choose a reason…</option>
          {fitting.map((r) => (
            <option key={r.code} value={r.code}>
              {r.internal}
            </option>
          ))}
        </select>
        {reasonCode ? (
          <p className="hint">
            The person will read: “{fitting.find((r) => r.code === reasonCode)?.person.en}”
          </p>
        ) : null}
        <label htmlFor="decision-note">Note (optional)</label>
        <textarea
          id="decision-note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={2000}
          rows={2}
        />
        <button type="submit" disabled={!reasonCode || decide.isPending}>
          Record decision
        </button>
      </form>
      {decide.error ? (
        <p role="alert" className="error">
          {decide.error.message}
        </p>
      ) : null}
      {decide.data?.resubmission ? (
        <p role="status">
          New capture link:{' '}
          <a href={decide.data.resubmission.url}>{decide.data.resubmission.url}</a>
        </p>
      ) : null}
    </section>
  );
}
