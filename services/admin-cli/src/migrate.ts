// `npm run migrate`: creates the database when missing and applies every pending migration.
import { loadConfig, PlatformConfig } from '@idv/config';
import { createDatabase, ensureDatabaseExists, migrate } from '@idv/db';
import { allMigrations } from './allMigrations.ts';

const config = loadConfig(PlatformConfig);
await ensureDatabaseExists(config.DATABASE_URL);
const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-migrate' });
try {
  const applied = await migrate(db, allMigrations);
  console.log(JSON.stringify({ applied }));
} finally {
  await db.destroy();
}
