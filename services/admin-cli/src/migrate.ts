// `npm run migrate`: creates the database when missing, applies every pending migration, destroys
// again what a restore brought back of erased data, and moves the values sealed under MASTER_KEY
// alone under data keys, progress on stderr (migrateAll.ts).
import { loadConfig, PlatformConfig, resolveMasterKey } from '@idv/config';
import { createDatabase, ensureDatabaseExists } from '@idv/db';
import { adminKeyring } from './commands.ts';
import { migrateAll } from './migrateAll.ts';

const config = loadConfig(PlatformConfig);
await ensureDatabaseExists(config.DATABASE_URL);
const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-migrate' });
try {
  const master = resolveMasterKey(config, (line) => console.error(line));
  const { keyring, close } = await adminKeyring(db, master, config);
  const progress = (moved: number, column: string) =>
    console.error(JSON.stringify({ resealed: moved, column }));
  try {
    console.log(JSON.stringify(await migrateAll(db, keyring, progress)));
  } finally {
    close();
  }
} finally {
  await db.destroy();
}
