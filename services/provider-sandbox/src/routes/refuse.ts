// How the sandbox refuses a request, the way a strict provider does: a status and a reason.
import type { Answer } from '../router.ts';

export function refuse(status: number, message: string): Answer {
  return { status, body: { error: status === 401 ? 'unauthorized' : 'invalid_request', message } };
}

/** The names of `required` members that are missing or not non-empty strings. */
export function missingStrings(body: unknown, required: readonly string[]): string[] {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return required.filter((name) => typeof record[name] !== 'string' || record[name] === '');
}

export const recordOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
