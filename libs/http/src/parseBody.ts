// Validates a request body against its contract schema, or throws a 400 naming every bad field.
import { validate } from '@idv/contracts';
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
