// Public surface of libs/db.
export {
  createDatabase,
  ensureDatabaseExists,
  isDatabaseUnavailable,
  isDatabaseUp,
  waitForDatabase,
  type DatabaseOptions,
  type Knex,
} from './database.ts';
export { migrate, type Migration, type MigrationSet } from './migrations.ts';
export {
  createOutboxTable,
  EventOutbox,
  outboxRow,
  storeEvents,
  type OutboxLog,
  type OutboxOptions,
} from './outbox.ts';
export { Batcher } from './batcher.ts';
export { conflictOnDuplicate, isUniqueViolation } from './conflicts.ts';
export { hasSqlState, retryOnDeadlock, SQLSTATE, type SqlStateName } from './sqlState.ts';
export { runPrepared, type PreparedStatement } from './preparedStatement.ts';
