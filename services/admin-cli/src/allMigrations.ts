// Every schema's migrations in dependency order; services add theirs here as they land.
import type { MigrationSet } from '@idv/db';
import { platformMigrations } from '@idv/platform';
import { consoleMigrations } from '../../console/src/migrations.ts';
import { docverifyMigrations } from '../../docverify-gateway/src/migrations.ts';
import { oauthMigrations } from '../../oauth/src/migrations.ts';
import { webhooksMigrations } from '../../webhooks-gateway/src/migrations.ts';

export const allMigrations: MigrationSet[] = [
  platformMigrations,
  oauthMigrations,
  docverifyMigrations,
  webhooksMigrations,
  consoleMigrations,
];
