// Runs a fixed statement under a name on a connection of the knex pool: PostgreSQL parses and
// plans it once per connection instead of on every write, and knex's query building is skipped.
import type { Knex } from '@idv/db';

export interface PreparedStatement {
  /** unique per text: the server keeps the plan under this name */
  name: string;
  /** with $1.. placeholders */
  text: string;
}

/** The part of node-postgres' client this module uses. */
interface PooledConnection {
  query(query: PreparedStatement & { values: unknown[] }): Promise<unknown>;
}

/** Same pool, limits and driver errors (SQLSTATE `code`) as knex queries. */
export async function runPrepared(
  db: Knex,
  statement: PreparedStatement,
  values: unknown[],
): Promise<void> {
  const connection = (await db.client.acquireConnection()) as PooledConnection;
  try {
    await connection.query({ ...statement, values });
  } finally {
    await db.client.releaseConnection(connection);
  }
}
