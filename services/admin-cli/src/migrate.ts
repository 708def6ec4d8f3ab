// `npm run migrate`: creates the database when missing, applies every pending migration and
// destroys again what a restore brought back of erased data (migrateAll.ts).
import { loadConfig, PlatformConfig } from '@idv/config';
import { createDatabase, ensureDatabaseExists } from '@idv/db';
import { migrateAll } from './migrateAll.ts';

const config = loadConfig(PlatformConfig);
await ensureDatabaseExists(config.DATABASE_URL);
const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-migrate' });
try {
  console.log(JSON.stringify(await migrateAll(db)));
} finally {
  await db.destroy();
}
