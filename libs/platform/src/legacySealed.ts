// Values sealed under MASTER_KEY before envelopes (mk1: text, version-1 bytes), and their move to
// data keys (issue 26): each store names its sealed columns (whose data key a row's value goes
// under, and the context it was sealed with), and the migration opens each old value and seals it
// again under its owner's data key, a batch at a time, rows taken with SKIP LOCKED and each update
// made only while the value is still the old one. It can stop and start again anywhere: what is
// left is what still starts with mk1.
import type { Knex } from '@idv/db';
import type { Keyring, KeyOwner } from './keyring.ts';

export type SealedRow = Record<string, unknown>;

export interface SealedColumn {
  /** schema.table */
  table: string;
  column: string;
  /** the columns that name one row */
  key: string[];
  /** bytes (version byte 1), not text (mk1:) */
  bytes?: true;
  owner(row: SealedRow): KeyOwner;
  context(row: SealedRow): string;
}

/** The rows of `column` still sealed under MASTER_KEY. */
function legacyRows(db: Knex, column: SealedColumn) {
  const query = db(column.table).whereNotNull(column.column);
  return column.bytes
    ? query.whereRaw('get_byte(??, 0) = 1', [column.column])
    : query.whereRaw("?? LIKE 'mk1:%'", [column.column]);
}

/** How many values of `columns` are still sealed under MASTER_KEY. */
export async function countLegacyValues(
  db: Knex,
  columns: readonly SealedColumn[],
): Promise<number> {
  let total = 0;
  for (const column of columns) {
    const row = await legacyRows(db, column).count({ n: '*' }).first();
    total += Number(row?.n ?? 0);
  }
  return total;
}

/**
 * Moves every value of `columns` still sealed under MASTER_KEY under its owner's data key;
 * `progress` hears the running total. Returns how many moved.
 */
export async function migrateLegacyValues(
  db: Knex,
  keyring: Keyring,
  columns: readonly SealedColumn[],
  options: {
    batch?: number;
    progress?: (moved: number, column: string) => void;
    /** a value that does not open (sealed under another MASTER_KEY, damaged): left, reported */
    failed?: (column: string, err: Error) => void;
  } = {},
): Promise<number> {
  let moved = 0;
  for (const column of columns) {
    // images are megabytes each: a few at a time
    const batch = options.batch ?? (column.bytes ? 10 : 500);
    const skipped: SealedRow[] = [];
    for (;;) {
      const done = await db.transaction(async (trx) => {
        const query = legacyRows(trx, column).select([...column.key, column.column]);
        for (const row of skipped)
          query.whereNot(Object.fromEntries(column.key.map((k) => [k, row[k]])));
        const rows = (await query.limit(batch).forUpdate().skipLocked()) as SealedRow[];
        let resealed = 0;
        for (const row of rows) {
          const old = row[column.column] as string | Buffer;
          const context = column.context(row);
          let sealed: string | Buffer;
          try {
            const key = await keyring.keyFor(column.owner(row), trx);
            sealed =
              typeof old === 'string'
                ? key.seal(await keyring.open(old, context, trx), context)
                : key.sealBytes(await keyring.openBytes(old, context, trx), context);
          } catch (err) {
            skipped.push(row);
            options.failed?.(`${column.table}.${column.column}`, err as Error);
            continue;
          }
          const where = Object.fromEntries(column.key.map((name) => [name, row[name]]));
          await trx(column.table)
            .where(where)
            .where(column.column, old)
            .update({ [column.column]: sealed });
          resealed += 1;
        }
        return { seen: rows.length, resealed };
      });
      if (done.seen === 0) break;
      moved += done.resealed;
      options.progress?.(moved, `${column.table}.${column.column}`);
    }
  }
  return moved;
}
