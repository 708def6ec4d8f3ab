// The webhooks schema's migration set (shared by the gateway and the dispatcher).
import type { MigrationSet } from '@idv/db';
import * as initial from '../migrations/001_webhooks.ts';

export const webhooksMigrations: MigrationSet = {
  schema: 'webhooks',
  migrations: { '001_webhooks': initial },
};
