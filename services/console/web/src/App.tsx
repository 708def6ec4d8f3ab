// The console's shell: who is logged in, the navigation (only the pages the roles can read), and
// the page of the address after '#'. Not logged in: the login button.
import { useEffect } from 'react';
import { login } from './api.ts';
import { href, useRoute } from './route.ts';
import { can, MeContext, useSessionQueries } from './Session.tsx';
import { AnalyticsPage } from './pages/AnalyticsPage.tsx';
import { AuditPage } from './pages/AuditPage.tsx';
import { CasePage } from './pages/CasePage.tsx';
import { QueuePage } from './pages/QueuePage.tsx';
import { SessionsPage } from './pages/SessionsPage.tsx';
import { VerifiersPage } from './pages/VerifiersPage.tsx';
import { WebhooksPage } from './pages/WebhooksPage.tsx';

const PAGES = [
  ['queue', 'Queue'],
  ['audit', 'Audit log'],
  ['sessions', 'Sessions'],
  ['webhooks', 'Webhooks'],
  ['verifiers', 'Verifiers'],
  ['analytics', 'Analytics'],
] as const;

export function App() {
  const { me, communities } = useSessionQueries();
  const [page = 'queue', ...rest] = useRoute();
  const title = PAGES.find(([p]) => p === page)?.[1] ?? 'Case';
  useEffect(() => {
    document.title = `${title} · Operator console`;
  }, [title]);
  if (me.isPending)
    return (
      <main>
        <p>Loading…</p>
      </main>
    );
  if (!me.data)
    return (
      <main className="signin">
        <h1>Operator console</h1>
        <p>Log in with your operator account.</p>
        <button type="button" onClick={() => login()}>
          Log in
        </button>
      </main>
    );
  const visible = PAGES.filter(([p]) => p !== 'audit' || can(me.data, 'auditor', 'admin'));
  return (
    <MeContext.Provider value={{ me: me.data, communities: communities.data?.items ?? [] }}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span className="brand">Operator console</span>
        <nav aria-label="Pages">
          <ul>
            {visible.map(([p, label]) => (
              <li key={p}>
                <a href={href(p)} aria-current={p === page ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="post" action="/auth/logout" className="who">
          <span>
            {me.data.username} ({me.data.roles.join(', ')})
          </span>
          <button type="submit">Log out</button>
        </form>
      </header>
      <main id="main" tabIndex={-1}>
        <Page page={page} rest={rest} />
      </main>
    </MeContext.Provider>
  );
}

function Page({ page, rest }: { page: string; rest: string[] }) {
  switch (page) {
    case 'case':
      return <CasePage community={rest[0] ?? ''} caseId={rest[1] ?? ''} />;
    case 'audit':
      return <AuditPage />;
    case 'sessions':
      return <SessionsPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'verifiers':
      return <VerifiersPage />;
    case 'analytics':
      return <AnalyticsPage />;
    default:
      return <QueuePage />;
  }
}
