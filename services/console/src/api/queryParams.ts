// The query parameters lists share, read strictly: a bad one is a 400 naming it.
import { BadRequest } from '@idv/http';
import type { Request } from 'express';

export function limitOf(req: Request, fallback = 50, max = 200): number {
  const raw = req.query.limit;
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw new BadRequest(`limit must be an integer from 1 to ${max}`);
  return Number(raw);
}

/** An optional text parameter of at most `max` characters. */
export function textOf(req: Request, name: string, max = 200): string | undefined {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > max)
    throw new BadRequest(`${name} must be a text of at most ${max} characters`);
  return raw;
}

export function oneOf<T extends string>(
  req: Request,
  name: string,
  values: readonly T[],
): T | undefined {
  const raw = textOf(req, name);
  if (raw === undefined) return undefined;
  if (!values.includes(raw as T))
    throw new BadRequest(`${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

/**
 * The time a text names, inside years 1 to 9999 (UTC); undefined otherwise. JavaScript's dates
 * reach year ±275760, PostgreSQL's timestamps do not: a wider one would fail in the query (500).
 */
export function boundedTime(text: string): Date | undefined {
  const at = new Date(text);
  const year = at.getUTCFullYear();
  return year >= 1 && year <= 9999 ? at : undefined;
}

export function timeOf(req: Request, name: string): Date | undefined {
  const raw = textOf(req, name, 40);
  if (raw === undefined) return undefined;
  const at = boundedTime(raw);
  if (!at) throw new BadRequest(`${name} must be an ISO 8601 time in the years 1 to 9999`);
  return at;
}

/** An opaque keyset cursor: base64url JSON of what the list's order was at its last row. */
export function cursorOf<T>(req: Request, valid: (value: unknown) => value is T): T | undefined {
  const raw = textOf(req, 'cursor', 400);
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (valid(value)) return value;
  } catch {
    // fall through to the refusal
  }
  throw new BadRequest('cursor is not one this list gave');
}

export const cursorFor = (value: unknown): string =>
  Buffer.from(JSON.stringify(value)).toString('base64url');
