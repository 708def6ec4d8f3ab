// The queries behind service keys: one current row per service, and the rows a reset retired.
import type { Knex } from '@idv/db';

export interface SealedKeyRow {
  service: string;
  public_key: string;
  private_key_sealed: string;
}

export interface CurrentKeyRow extends SealedKeyRow {
  created_at: Date;
}

export interface RetiredKeyRow extends CurrentKeyRow {
  retired_at: Date;
  accepted_until: Date;
}

const CURRENT = 'platform.service_keys';
const RETIRED = 'platform.retired_service_keys';

export function readCurrent(db: Knex, service: string): Promise<CurrentKeyRow | undefined> {
  return db(CURRENT).where({ service }).first();
}

export async function insertCurrentIfAbsent(db: Knex, row: SealedKeyRow): Promise<void> {
  await db(CURRENT).insert(row).onConflict('service').ignore();
}

/** The row under lock, so racing resets (and replacements) take turns. */
export function lockCurrent(
  trx: Knex.Transaction,
  service: string,
): Promise<CurrentKeyRow | undefined> {
  return trx(CURRENT).where({ service }).forUpdate().first();
}

/** An update rather than delete + insert, so a racing reset waits and then sees the new key. */
export async function replaceCurrent(trx: Knex.Transaction, row: SealedKeyRow): Promise<void> {
  await trx(CURRENT)
    .where({ service: row.service })
    .update({ ...row, created_at: trx.fn.now() });
}

/** Retired keys of the service, newest first (expired ones included until purged). */
export function readRetired(db: Knex, service: string): Promise<RetiredKeyRow[]> {
  return db(RETIRED).where({ service }).orderBy('retired_at', 'desc');
}

/** Keeps `row` (the key a reset replaces) accepted for `graceSeconds` from now. */
export async function retire(
  trx: Knex.Transaction,
  row: CurrentKeyRow,
  graceSeconds: number,
): Promise<void> {
  await trx(RETIRED)
    .insert({
      service: row.service,
      public_key: row.public_key,
      private_key_sealed: row.private_key_sealed,
      created_at: row.created_at,
      retired_at: trx.fn.now(),
      accepted_until: trx.raw('now() + make_interval(secs => ?)', [graceSeconds]),
    })
    .onConflict(['service', 'public_key'])
    .ignore();
}

/** Drops expired retired keys and all but the `keep` newest of the rest. */
export async function pruneRetired(db: Knex, service: string, keep: number): Promise<number> {
  const expired = await db(RETIRED)
    .where({ service })
    .andWhere('accepted_until', '<=', db.fn.now())
    .delete();
  const kept = db(RETIRED)
    .where({ service })
    .orderBy('retired_at', 'desc')
    .limit(keep)
    .select('public_key');
  const surplus = await db(RETIRED).where({ service }).whereNotIn('public_key', kept).delete();
  return expired + surplus;
}

export async function dropRetired(db: Knex, service: string): Promise<void> {
  await db(RETIRED).where({ service }).delete();
}
