// A case's calls as queries, shared by the case page and the entry (src/main.tsx), which starts
// them from the address beside /api/me instead of after it: the case and the person's data are
// refused with 401/403 like any call when they should be, and the data read is audited by the
// gateway once, whichever of the two asks it (the page takes over the entry's answer).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { CaseData } from './CaseEvidence.tsx';
import type { ReviewCase } from './CasePage.tsx';

export const caseBase = (community: string, caseId: string) =>
  `/review/community/${community}/cases/${caseId}`;

/** How a 401 is taken: sent to login (the page's calls), or only an error (the entry's). */
type Init = { loginOn401?: boolean };

/** keyed apart from the person's data: refreshing the case never reads the data again */
export const caseQuery = (community: string, caseId: string, init: Init = {}) =>
  queryOptions({
    queryKey: ['case', caseId],
    queryFn: () => api<ReviewCase>(caseBase(community, caseId), init),
  });

export const caseDataQuery = (community: string, caseId: string, init: Init = {}) =>
  queryOptions({
    queryKey: ['case-data', caseId],
    queryFn: () => api<CaseData>(`${caseBase(community, caseId)}/data`, init),
  });

/**
 * The case page's calls, from the entry: a 401 only an error here (/api/me, asked beside them,
 * sends to login); the page's queries take over the answers, or ask again after a refusal.
 */
export function preloadCase(client: QueryClient, community: string, caseId: string): void {
  void client.prefetchQuery(caseQuery(community, caseId, { loginOn401: false }));
  void client.prefetchQuery(caseDataQuery(community, caseId, { loginOn401: false }));
}
