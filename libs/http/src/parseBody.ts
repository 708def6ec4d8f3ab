// Validates a request body against its contract schema, or throws a 400 naming every bad field;
// and reads a body that a route takes as bytes (to check a signature over them first) as JSON.
import { jsonNestingIssue, validate } from '@idv/contracts';
import type { Static, TSchema } from '@sinclair/typebox';
import { BadRequest } from './errors.ts';

export function parseBody<S extends TSchema>(schema: S, body: unknown, prefix = ''): Static<S> {
  if (body === undefined)
    throw new BadRequest('a JSON body is required (Content-Type: application/json)');
  const result = validate(schema, body);
  if (result.ok) return result.value;
  const details = result.issues.map((issue) => ({ ...issue, path: `${prefix}${issue.path}` }));
  const first = details[0];
  throw new BadRequest(
    first ? `body is invalid: ${first.path || '/'} ${first.message}` : 'body is invalid',
    details,
  );
}

/**
 * The JSON of a raw body, or a 400: one that is not JSON, or nests deeper than MAX_JSON_DEPTH (what
 * parses may still be too deep to serialise again: JSON.stringify recurses and throws RangeError).
 */
export function parseJsonBytes(bytes: Buffer | string, what = 'the body'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequest(`${what} must be JSON`);
  }
  const deep = jsonNestingIssue(value);
  if (deep) throw new BadRequest(`${what} is invalid: ${deep.path} ${deep.message}`, [deep]);
  return value;
}
