// `npm run migrate`: creates the database when missing, applies every pending migration, and
// destroys again any data key erased since the backup a restore came from (keyring.ts): those of
// the keystore's ledger and those the data's tombstones name, whichever of the two was restored.
import { loadConfig, PlatformConfig } from '@idv/config';
import { createDatabase, ensureDatabaseExists, migrate } from '@idv/db';
import { reapplyErasures } from '@idv/platform';
import { allMigrations } from './allMigrations.ts';

const config = loadConfig(PlatformConfig);
await ensureDatabaseExists(config.DATABASE_URL);
const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-migrate' });
try {
  const applied = await migrate(db, allMigrations);
  const tombstoned = (await db.raw(
    "SELECT DISTINCT jsonb_array_elements_text(tombstone->'dataKeys') AS id FROM docverify.erasures",
  )) as { rows: { id: string }[] };
  const erasedAgain = await reapplyErasures(
    db,
    tombstoned.rows.map((row) => row.id),
  );
  console.log(JSON.stringify({ applied, erasedAgain: erasedAgain.length }));
} finally {
  await db.destroy();
}
