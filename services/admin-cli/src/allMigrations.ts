// Every schema's migrations in dependency order; services add theirs here as they land.
import type { MigrationSet } from '@idv/db';
import { platformMigrations } from '@idv/platform';

export const allMigrations: MigrationSet[] = [platformMigrations];
