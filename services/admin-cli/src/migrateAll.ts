// Every start after a deploy or a restore: the pending migrations of every schema; the data keys
// erased since the backup a restore came from destroyed again (keyring.ts), those of the keystore's
// ledger and those the data's tombstones name, whichever of the two was restored; and the values
// still sealed under MASTER_KEY alone (mk1:) moved under data keys (legacySealed.ts), resumable.
// Used by `npm run migrate` (compose, the Kubernetes Job), `make run` and the admin CLI.
import { migrate, type Knex } from '@idv/db';
import { migrateLegacyValues, reapplyErasures, type Keyring } from '@idv/platform';
import { allMigrations } from './allMigrations.ts';
import { SEALED_COLUMNS } from './sealedColumns.ts';

export interface Migrated {
  applied: string[];
  erasedAgain: number;
  /** values moved from MASTER_KEY alone to data keys */
  resealed: number;
}

/** `keyring`: the values sealed before envelopes are moved too; `progress` hears how many. */
export async function migrateAll(
  db: Knex,
  keyring?: Keyring,
  progress?: (moved: number, column: string) => void,
): Promise<Migrated> {
  const applied = await migrate(db, allMigrations);
  const tombstoned = (await db.raw(
    "SELECT DISTINCT jsonb_array_elements_text(tombstone->'dataKeys') AS id FROM docverify.erasures",
  )) as { rows: { id: string }[] };
  const erasedAgain = await reapplyErasures(
    db,
    tombstoned.rows.map((row) => row.id),
  );
  // the rows of erased owners a restore of the data brought back (their plain columns too) go,
  // before anything sealed under MASTER_KEY alone among them could be moved under a new key
  await deleteErasedRows(db);
  const resealed = keyring
    ? await migrateLegacyValues(db, keyring, SEALED_COLUMNS, progress ? { progress } : {})
    : 0;
  return { applied, erasedAgain: erasedAgain.length, resealed };
}

/** The docverify rows of each kind of owner, by the column that names the owner. */
const OWNED_ROWS: [table: string, column: string, owner: string][] = [
  ['docverify.session_images', 'session_id', 'session'],
  ['docverify.verification_runs', 'session_id', 'session'],
  ['docverify.sessions', 'id', 'session'],
  ['docverify.verification_runs', 'id', 'run'],
  ['docverify.verifications', 'id', 'verification'],
];

/**
 * The docverify rows whose owner the keystore's ledger says was erased. Not those whose key
 * retention destroyed: an ended session, its runs and its result stay until read or swept.
 */
async function deleteErasedRows(db: Knex): Promise<void> {
  for (const [table, column, owner] of OWNED_ROWS)
    await db(table)
      .whereRaw(
        `?? IN (SELECT owner_id::uuid FROM keys.erased_data_keys WHERE owner_kind = ? AND reason = 'erasure')`,
        [column, owner],
      ) // prettier-ignore
      .delete();
}
