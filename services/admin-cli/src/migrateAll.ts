// Every start after a deploy or a restore: the pending migrations of every schema, then the data
// keys erased since the backup a restore came from destroyed again (keyring.ts), those of the
// keystore's ledger and those the data's tombstones name, whichever of the two was restored.
// Used by `npm run migrate` (compose, the Kubernetes Job), `make run` and the admin CLI.
import { migrate, type Knex } from '@idv/db';
import { reapplyErasures } from '@idv/platform';
import { allMigrations } from './allMigrations.ts';

export async function migrateAll(db: Knex): Promise<{ applied: string[]; erasedAgain: number }> {
  const applied = await migrate(db, allMigrations);
  const tombstoned = (await db.raw(
    "SELECT DISTINCT jsonb_array_elements_text(tombstone->'dataKeys') AS id FROM docverify.erasures",
  )) as { rows: { id: string }[] };
  const erasedAgain = await reapplyErasures(
    db,
    tombstoned.rows.map((row) => row.id),
  );
  return { applied, erasedAgain: erasedAgain.length };
}
