// One case: the evidence (the document beside the selfie, extracted data beside what the caller
// gave, every check), its history and notes, and beside them a panel with the facts, claim and
// release, the decision form (four-eyes second review included) and the new capture link of a
// resubmission; erasure for admins at the end.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import { time } from '../DataTable.tsx';
import { can, useMe } from '../Session.tsx';
import { CaseChecks, type CaseCheck } from './CaseChecks.tsx';
import { CaseErasure } from './CaseErasure.tsx';
import { CaseEvidence } from './CaseEvidence.tsx';
import { CaseHistory } from './CaseHistory.tsx';
import { caseBase, caseDataQuery, caseQuery } from './caseQueries.ts';
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
  checks: CaseCheck[];
  history: {
    at: string;
    actor: string;
    action: string;
    state: string;
    decision?: string;
    reasonCode?: string;
  }[];
  notes: { at: string; author: string; text: string | null }[];
  decisions: { stage: string; decision: string; reasonCode: string; by: string; at: string }[];
  /** the url (a credential) only for reviewers, senior reviewers and admins */
  resubmission: { sessionId: string; url?: string; expiresAt: string } | null;
}

export function CasePage({ community, caseId }: { community: string; caseId: string }) {
  const { me } = useMe();
  const base = caseBase(community, caseId);
  const client = useQueryClient();
  const reviewer = can(me, 'reviewer', 'senior_reviewer', 'admin');
  // both most often already asked by the entry (src/main.tsx), beside /api/me
  const found = useQuery(caseQuery(community, caseId));
  const data = useQuery({ ...caseDataQuery(community, caseId), enabled: reviewer });
  const refresh = () => client.invalidateQueries({ queryKey: ['case', caseId] });
  const step = useMutation({
    mutationFn: (path: 'claim' | 'release') => api(`${base}/${path}`, { method: 'POST' }),
    onSuccess: refresh,
  });
  if (found.error)
    return (
      <p role="alert" className="error">
        {found.error.message}
      </p>
    );
  if (!found.data) return <p>Loading…</p>;
  const c = found.data;
  const erased = c.state === 'erased';
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
      {erased ? (
        <p role="status" className="notice">
          This person's personal data was erased: images, request and result data are gone; the
          history and the audit log keep who did what.
        </p>
      ) : null}
      <div className="case-layout">
        <div className="case-evidence">
          {reviewer && data.data && !erased ? <CaseEvidence base={base} data={data.data} /> : null}
          <CaseChecks checks={c.checks} />
          <CaseHistory base={base} review={c} canNote={reviewer && !erased} onNoted={refresh} />
          {can(me, 'admin') && !erased ? (
            <CaseErasure community={community} review={c} onErased={refresh} />
          ) : null}
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
                <button type="button" onClick={() => step.mutate('claim')}>
                  Claim
                </button>
              ) : null}
              {releasable ? (
                <button type="button" className="secondary" onClick={() => step.mutate('release')}>
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
              {c.resubmission.url ? (
                <p>
                  New capture link (until {time(c.resubmission.expiresAt)}):{' '}
                  <a className="long" href={c.resubmission.url}>
                    {c.resubmission.url}
                  </a>
                </p>
              ) : (
                <p>
                  A new capture was asked for (until {time(c.resubmission.expiresAt)}); its link is
                  shown to reviewers only.
                </p>
              )}
            </section>
          ) : null}
          {deciding ? <DecisionForm base={base} review={c} onDone={refresh} /> : null}
        </aside>
      </div>
    </article>
  );
}
