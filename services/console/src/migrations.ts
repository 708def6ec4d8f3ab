// The console schema's migration set: its sessions (the tokens it keeps for operators).
import type { MigrationSet } from '@idv/db';
import * as sessions from '../migrations/001_console_sessions.ts';

export const consoleMigrations: MigrationSet = {
  schema: 'console',
  migrations: { '001_console_sessions': sessions },
};
