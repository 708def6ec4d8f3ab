// A case's history (who did what, decisions with their reason) and its notes; reviewers add notes.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { time } from '../DataTable.tsx';
import type { ReviewCase } from './CasePage.tsx';

export function CaseHistory(props: {
  base: string;
  review: ReviewCase;
  canNote: boolean;
  onNoted: () => void;
}) {
  const { history, notes } = props.review;
  const [note, setNote] = useState('');
  const add = useMutation({
    mutationFn: (text: string) => api(`${props.base}/notes`, { method: 'POST', body: { text } }),
    onSuccess: () => {
      setNote('');
      props.onNoted();
    },
  });
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ol className="history">
        {history.map((h, i) => (
          <li key={i}>
            {time(h.at)} — {h.actor}: {h.action.replace(/_/g, ' ')}
            {h.decision ? ` (${h.decision}, ${h.reasonCode?.replace(/_/g, ' ') ?? ''})` : ''}
          </li>
        ))}
      </ol>
      <h2>Notes</h2>
      {notes.length === 0 ? <p className="hint">No note yet.</p> : null}
      <ul>
        {notes.map((n, i) => (
          <li key={i}>
            {time(n.at)} — {n.author}:{' '}
            {n.text ?? '(text not shown: for reviewers only, or gone with the verification’s data)'}
          </li>
        ))}
      </ul>
      {props.canNote ? (
        <form
          className="note-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (note.trim()) add.mutate(note);
          }}
        >
          <label htmlFor="note">Add a note</label>
          <textarea
            id="note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={2000}
            rows={3}
          />
          <button type="submit">Add note</button>
        </form>
      ) : null}
      {add.error ? (
        <p role="alert" className="error">
          {add.error.message}
        </p>
      ) : null}
    </section>
  );
}
