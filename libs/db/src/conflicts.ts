// The one place a PostgreSQL unique violation becomes the domain's ConflictError: a store's insert
// or update that collides with an existing row (a tag, a name) is the caller's conflict, not a 500.
import { ConflictError } from '@idv/errors';
import { hasSqlState } from './sqlState.ts';

export function isUniqueViolation(err: unknown): boolean {
  return hasSqlState(err, 'uniqueViolation');
}

/**
 * Runs `write`; a unique violation becomes a ConflictError saying `message` (what collides, in
 * the caller's words), anything else goes on as it was.
 */
export async function conflictOnDuplicate<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(message);
    throw err;
  }
}
