// Entry of the console's web app: TanStack Query for server state, the shell, the styles. The
// calls of the address's page start here, before React first renders, all at once: /api/me, the
// communities, and on a case page the case and the person's data (src/pages/caseQueries.ts), which
// then no longer wait for /api/me's answer and the render after it; the shell and pages take the
// answers over from the same client.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { preloadCase } from './pages/caseQueries.ts';
import { routeParts } from './route.ts';
import { communitiesQuery, meQuery } from './Session.tsx';
import './styles.css';

const client = new QueryClient({
  defaultOptions: { queries: { retry: false, staleTime: 10_000 } },
});

void client.prefetchQuery(meQuery);
void client.prefetchQuery(communitiesQuery);
const [page, community, caseId] = routeParts();
if (page === 'case' && community && caseId) preloadCase(client, community, caseId);

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
