// The web app's only way to the server: same-origin JSON calls to /api. A 401 sends the operator
// to log in and back here; a 401 `reauthenticate` asks for a fresh login first (sensitive actions).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const here = () => `${location.pathname}${location.hash}`;

export function login(fresh = false): void {
  const query = new URLSearchParams({ returnTo: here(), ...(fresh ? { fresh: '1' } : {}) });
  location.assign(`/auth/login?${query.toString()}`);
}

export async function api<T>(
  path: string,
  /** loginOn401 false: a 401 is only an error (a call made beside /api/me, which sends to login) */
  init: { method?: string; body?: unknown; loginOn401?: boolean } = {},
): Promise<T> {
  const answer = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await answer.json().catch(() => ({}))) as { error?: string; message?: string };
  if (answer.status === 401 && init.loginOn401 !== false) {
    login(body.error === 'reauthenticate');
    throw new ApiError(401, body.message ?? 'log in again');
  }
  if (!answer.ok) throw new ApiError(answer.status, body.message ?? `error ${answer.status}`);
  return body as T;
}

export const query = (params: Record<string, string | undefined>) => {
  const entries = Object.entries(params).filter((e): e is [string, string] => !!e[1]);
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
};
