// What the paged lists share (sessions, review cases): the query as ajv reads it (limit as a
// number) and the keyset cursor, the last row of a page (its time and id), opaque to callers. A
// cursor is taken back only in the exact form this module writes: a UUID and a time of years
// 0001-9999 (PostgreSQL cannot store every time a JavaScript Date can: that was a 500).
import { BadRequest } from '@idv/http';
import { UUID } from '@idv/platform';
import type { Request } from 'express';

export function listQuery(req: Request): unknown {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  if (typeof query.limit === 'string' && /^\d+$/.test(query.limit))
    query.limit = Number(query.limit);
  return query;
}

const cursorOf = (at: Date, id: string) =>
  Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');

/** The cursor of the page after `rows` (its last row), or null when the page was not full. */
export function nextCursor<T>(rows: T[], limit: number, key: (row: T) => [Date, string]) {
  const last = rows.at(-1);
  return rows.length === limit && last ? cursorOf(...key(last)) : null;
}

/** toISOString's form for years 0001-9999 (PostgreSQL has no year 0): a cursor's times. */
const ISO_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The row a cursor names; a 400 saying where cursors come from (`given`) for any other value. */
export function afterCursor(
  cursor: string | undefined,
  given: string,
): { at: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const when = typeof at === 'string' && ISO_TIME.test(at) ? new Date(at) : undefined;
    // a time that does not read back as written (2026-02-30) is not one a page gave
    const written = when && !Number.isNaN(when.getTime()) && when.toISOString() === at;
    if (written && typeof id === 'string' && UUID.test(id)) return { at: when, id };
  } catch {
    // falls through to the 400
  }
  throw new BadRequest('cursor is not one this list gave', [
    { path: '/cursor', message: `use ${given} of the previous page` },
  ]);
}
