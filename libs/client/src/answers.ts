// How the SDK's calls answer: the body of the expected status, or an IdvRequestError carrying the
// status and the platform's error body ({statusCode, error, message, details?}).
import type { IdvResponse } from './transport.ts';

export class IdvRequestError extends Error {
  override readonly name = 'IdvRequestError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const said = (body as { message?: unknown } | undefined)?.message;
    super(`${status}${typeof said === 'string' ? `: ${said}` : ''}`);
  }
}

export function bodyOf<T>(res: IdvResponse<T>, ok = 200): T {
  if (res.status !== ok) throw new IdvRequestError(res.status, res.body);
  return res.body;
}
