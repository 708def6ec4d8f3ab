// Who is logged in (GET /api/me), the communities they see, and the role checks the pages use to
// show only what the server would allow (the server decides in any case).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { api } from './api.ts';

export interface Me {
  username: string;
  roles: string[];
  communities: string[];
  authTime: string;
}

export interface Community {
  id: string;
  name: string;
}

export const MeContext = createContext<{ me: Me; communities: Community[] } | undefined>(undefined);

export function useMe() {
  const value = useContext(MeContext);
  if (!value) throw new Error('useMe outside the session');
  return value;
}

export const can = (me: Me, ...roles: string[]) => me.roles.some((r) => roles.includes(r));

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => api<Me>('/me'),
  retry: false,
});

// asked beside /api/me, not after it: a 401 here is only an error, /api/me sends to login
export const communitiesQuery = queryOptions({
  queryKey: ['communities'],
  queryFn: () => api<{ items: Community[] }>('/communities', { loginOn401: false }),
  retry: false,
});

/** Both already asked by the entry (src/main.tsx); the shell waits for me alone. */
export function useSessionQueries() {
  return { me: useQuery(meQuery), communities: useQuery(communitiesQuery) };
}

/** A community's name as the operator knows it, or its id when it is not among theirs. */
export const communityName = (communities: Community[], id: string) =>
  communities.find((c) => c.id === id)?.name ?? id;
