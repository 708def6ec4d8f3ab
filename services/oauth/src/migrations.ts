// The oauth schema's migration set.
import type { MigrationSet } from '@idv/db';
import * as initial from '../migrations/001_oauth.ts';

export const oauthMigrations: MigrationSet = {
  schema: 'oauth',
  migrations: { '001_oauth': initial },
};
