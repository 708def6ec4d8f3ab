// One case: the document beside the selfie, extracted data beside what the caller gave, every
// check, the history and notes, the decision form (four-eyes second review included), the new
// capture link of a resubmission, and erasure for admins.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { time } from '../DataTable.tsx';
import { can, useMe } from '../Session.tsx';
import { DecisionForm } from './DecisionForm.tsx';

export interface ReviewCase {
  caseId: string;
  state: string;
  fourEyes: boolean;
  dueAt: string | null;
  assignee: string | null;
  verificationId: string;
  sessionId?: string | null;
  resultStatus: string;
  checks: { kind: string; verifier: string; provider: string; status: string; score?: number }[];
  history: { at: string; actor: string; action: string; state: string; decision?: string; reasonCode?: string }[]; // prettier-ignore
  notes: { at: string; author: string; text: string | null }[];
  decisions: { stage: string; decision: string; reasonCode: string; by: string; at: string }[];
  resubmission: { sessionId: string; url: string; expiresAt: string } | null;
}

interface CaseData {
  given: Record<string, string>;
  extracted: { kind: string; verifier: string; fields: Record<string, string> }[];
  images: { name: string; mediaType: string; bytes: number }[];
}

/** A session's run is erased with its session (images, runs, resubmissions); an async run alone. */
const erasureSubject = (c: ReviewCase) =>
  c.sessionId ? { sessionId: c.sessionId } : { verificationId: c.verificationId };

export function CasePage({ community, caseId }: { community: string; caseId: string }) {
  const { me } = useMe();
  const base = `/review/community/${community}/cases/${caseId}`;
  const client = useQueryClient();
  const reviewer = can(me, 'reviewer', 'senior_reviewer', 'admin');
  const found = useQuery({ queryKey: ['case', caseId], queryFn: () => api<ReviewCase>(base) });
  const data = useQuery({ queryKey: ['case-data', caseId], queryFn: () => api<CaseData>(`${base}/data`), enabled: reviewer }); // prettier-ignore
  const [note, setNote] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['case', caseId] });
  const step = useMutation({
    mutationFn: (what: { path: string; body?: unknown }) => api(`${base}/${what.path}`, { method: 'POST', body: what.body }), // prettier-ignore
    onSuccess: refresh,
  });
  const erase = useMutation({
    mutationFn: () => api<{ tombstone: unknown }>(`/erasure/community/${community}`, { method: 'POST', body: erasureSubject(found.data!) }), // prettier-ignore
    // the person's data is gone: nothing of it stays cached on the page
    onSuccess: () => {
      client.removeQueries({ queryKey: ['case-data', caseId] });
      return refresh();
    },
  });
  if (found.error)
    return (
      <p role="alert" className="error">
        {found.error.message}
      </p>
    );
  if (!found.data) return <p>Loading…</p>;
  const c = found.data;
  const mine = c.assignee === me.username;
  const senior = can(me, 'senior_reviewer', 'admin');
  const claimable =
    reviewer && (c.state === 'open' || (c.state === 'awaiting_second' && !c.assignee && senior));
  const releasable = reviewer && !!c.assignee && (mine || can(me, 'admin'));
  const deciding =
    reviewer &&
    ((c.state === 'in_review' && mine) ||
      (c.state === 'awaiting_second' && senior && (!c.assignee || mine)));
  return (
    <article aria-labelledby="case-title">
      <h1 id="case-title">
        Case {c.caseId.slice(0, 8)}{' '}
        <span className={`badge ${c.state}`}>{c.state.replace(/_/g, ' ')}</span>
      </h1>
      {c.state === 'erased' ? (
        <p role="status" className="notice">
          This person's personal data was erased: images, request and result data are gone; the
          history and the audit log keep who did what.
        </p>
      ) : null}
      <div className="case-layout">
        <div className="case-evidence">
          {reviewer && data.data && c.state !== 'erased' ? (
            <section aria-labelledby="images-title">
              <h2 id="images-title">Document and selfie</h2>
              <div className="images">
                {data.data.images.map((image) => (
                  <figure key={image.name}>
                    <a
                      href={`/api${base}/images/${encodeURIComponent(image.name)}`}
                      target="_blank"
                      rel="noopener"
                    >
                      <img
                        src={`/api${base}/images/${encodeURIComponent(image.name)}`}
                        alt={`${image.name} image (opens full size)`}
                      />
                    </a>
                    <figcaption>{image.name}</figcaption>
                  </figure>
                ))}
              </div>
              <h2>Extracted data beside what the caller gave</h2>
              <div className="compare">
                <table>
                  <caption>Given by the caller</caption>
                  <tbody>
                    {Object.entries(data.data.given).map(([k, v]) => (
                      <tr key={k}>
                        <th scope="row">{k}</th>
                        <td>{v}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {data.data.extracted.map((e) => (
                  <table key={`${e.kind}-${e.verifier}`}>
                    <caption>
                      Extracted by {e.verifier} ({e.kind})
                    </caption>
                    <tbody>
                      {Object.entries(e.fields).map(([k, v]) => (
                        <tr key={k}>
                          <th scope="row">{k}</th>
                          <td>{v}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ))}
              </div>
            </section>
          ) : null}
          <section aria-labelledby="checks-title">
            <h2 id="checks-title">Checks</h2>
            <table>
              <caption className="visually-hidden">Every check of the verification</caption>
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Verifier</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Result</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {c.checks.map((check) => (
                  <tr key={`${check.kind}-${check.verifier}`}>
                    <td>{check.kind}</td>
                    <td>{check.verifier}</td>
                    <td>{check.provider}</td>
                    <td>{check.status}</td>
                    <td>{check.score ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
        <aside className="case-side" aria-label="Case work">
          <dl className="facts">
            <dt>Verification</dt>
            <dd>
              <code>{c.verificationId}</code>
            </dd>
            <dt>Result</dt>
            <dd>{c.resultStatus}</dd>
            <dt>Four-eyes</dt>
            <dd>{c.fourEyes ? 'yes' : 'no'}</dd>
            <dt>Due</dt>
            <dd>{time(c.dueAt)}</dd>
            <dt>Assignee</dt>
            <dd>{c.assignee ?? '—'}</dd>
          </dl>
          {claimable || releasable ? (
            <div className="actions">
              {claimable ? (
                <button type="button" onClick={() => step.mutate({ path: 'claim' })}>
                  Claim
                </button>
              ) : null}
              {releasable ? (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => step.mutate({ path: 'release' })}
                >
                  Release
                </button>
              ) : null}
            </div>
          ) : null}
          {step.error ? (
            <p role="alert" className="error">
              {step.error.message}
            </p>
          ) : null}
          {c.resubmission ? (
            <section aria-labelledby="resub-title">
              <h2 id="resub-title">Resubmission</h2>
              <p>
                New capture link (until {time(c.resubmission.expiresAt)}):{' '}
                <a className="long" href={c.resubmission.url}>
                  {c.resubmission.url}
                </a>
              </p>
            </section>
          ) : null}
          {deciding ? <DecisionForm base={base} review={c} onDone={refresh} /> : null}
          <section aria-labelledby="history-title">
            <h2 id="history-title">History</h2>
            <ol className="history">
              {c.history.map((h, i) => (
                <li key={i}>
                  {time(h.at)} — {h.actor}: {h.action.replace(/_/g, ' ')}
                  {h.decision ? ` (${h.decision}, ${h.reasonCode?.replace(/_/g, ' ') ?? ''})` : ''}
                </li>
              ))}
            </ol>
            <h2>Notes</h2>
            {c.notes.length === 0 ? <p className="hint">No note yet.</p> : null}
            <ul>
              {c.notes.map((n, i) => (
                <li key={i}>
                  {time(n.at)} — {n.author}: {n.text ?? '(erased)'}
                </li>
              ))}
            </ul>
            {reviewer && c.state !== 'erased' ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (note.trim())
                    step.mutate(
                      { path: 'notes', body: { text: note } },
                      { onSuccess: () => setNote('') },
                    );
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
          </section>
          {can(me, 'admin') && c.state !== 'erased' ? (
            <section aria-labelledby="erase-title" className="danger">
              <h2 id="erase-title">Erase this person's data</h2>
              <p>
                Images, request and result data are deleted; a tombstone of hashes and ids remains.
                You may be asked to log in again.
              </p>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (confirm("Erase this verification's personal data? This cannot be undone."))
                    erase.mutate();
                }}
              >
                Erase
              </button>
              {erase.data ? <p role="status">Erased.</p> : null}
              {erase.error ? (
                <p role="alert" className="error">
                  {erase.error.message}
                </p>
              ) : null}
            </section>
          ) : null}
        </aside>
      </div>
    </article>
  );
}
