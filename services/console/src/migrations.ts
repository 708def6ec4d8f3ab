// The console schema's migration set: its sessions (the tokens it keeps for operators) and when
// their roles were last read at the issuer.
import type { MigrationSet } from '@idv/db';
import * as sessions from '../migrations/001_console_sessions.ts';
import * as claimsChecked from '../migrations/002_session_claims_checked.ts';

export const consoleMigrations: MigrationSet = {
  schema: 'console',
  migrations: { '001_console_sessions': sessions, '002_session_claims_checked': claimsChecked },
};
