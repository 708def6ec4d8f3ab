// Every start after a deploy or a restore: the pending migrations of every schema; the data keys
// erased since the backup a restore came from destroyed again (keyring.ts), those of the keystore's
// ledger and those the data's tombstones name, whichever of the two was restored; the rows of what
// was erased deleted again and its review cases closed as erased again; and the values still
// sealed under MASTER_KEY alone (mk1:) moved under data keys (legacySealed.ts), resumable.
// Used by `npm run migrate` (compose, the Kubernetes Job), `make run` and the admin CLI.
import { migrate, type Knex } from '@idv/db';
import { migrateLegacyValues, reapplyErasures, type Keyring } from '@idv/platform';
import { closeErasedCases } from '../../docverify-gateway/src/erasure/caseErasure.ts';
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
 * The review cases an erasure took along (caseErasure.ts: any of its sessions or runs erased, a
 * resubmission's included) that an older backup brought back live or with notes, with when their
 * keys went. Read before the sessions go: a resubmission's session names its case.
 */
const ERASED_CASES = `
  WITH erased AS MATERIALIZED (
    SELECT owner_kind, owner_id::uuid AS id, erased_at FROM keys.erased_data_keys
    WHERE reason = 'erasure' AND owner_kind IN ('session', 'run')),
  members AS (
    SELECT c.id, e.erased_at FROM docverify.review_cases c
      JOIN erased e ON e.owner_kind = 'session' AND e.id = c.session_id
    UNION ALL SELECT c.id, e.erased_at FROM docverify.review_cases c
      JOIN erased e ON e.owner_kind = 'run' AND e.id IN (c.run_id, c.current_run_id)
    UNION ALL SELECT s.review_case_id, e.erased_at FROM docverify.sessions s
      JOIN erased e ON e.owner_kind = 'session' AND e.id = s.id
      WHERE s.review_case_id IS NOT NULL)
  SELECT m.id, max(m.erased_at) AS erased_at FROM members m
    JOIN docverify.review_cases c ON c.id = m.id
  WHERE c.state <> 'erased'
     OR EXISTS (SELECT 1 FROM docverify.review_notes n WHERE n.case_id = c.id)
  GROUP BY m.id`;

/**
 * Closes those cases as the erasure did: notes and resubmission link gone, state erased, a history
 * line. Its actor is `system`: the erasure's own line (and who asked) is not in the older backup.
 */
async function closeErasedReviewCases(db: Knex): Promise<void> {
  const found = (await db.raw(ERASED_CASES)) as { rows: { id: string; erased_at: Date }[] };
  if (found.rows.length === 0) return;
  await db.transaction(async (trx) => {
    for (const kase of found.rows) await closeErasedCases(trx, [kase.id], 'system', kase.erased_at);
  });
}

/**
 * The docverify rows whose owner the keystore's ledger says was erased, and the review cases they
 * were under closed again. Not those whose key retention destroyed: an ended session, its runs and
 * its result stay until read or swept.
 */
async function deleteErasedRows(db: Knex): Promise<void> {
  await closeErasedReviewCases(db);
  for (const [table, column, owner] of OWNED_ROWS)
    await db(table)
      .whereRaw(
        `?? IN (SELECT owner_id::uuid FROM keys.erased_data_keys WHERE owner_kind = ? AND reason = 'erasure')`,
        [column, owner],
      )
      .delete();
}
