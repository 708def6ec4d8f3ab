// Rows of the platform's audit log (platform.audit_log, append-only): who did what to which
// subject, written in the transaction of the action itself. Details hold ids and counts only.
// A trigger chains every row by hash (migration 009); verifyAuditChain walks that chain.
import type { Knex } from '@idv/db';

export interface AuditEntry {
  actor: string;
  action: string;
  communityId: string | null;
  subject: { kind: string; id: string };
  details?: Record<string, unknown>;
  at?: Date;
}

/** Written in `db`'s transaction; the trigger holds the chain's head until that transaction ends. */
export async function appendAudit(db: Knex, entry: AuditEntry): Promise<void> {
  await db('platform.audit_log').insert({
    ...(entry.at ? { at: entry.at } : {}),
    actor: entry.actor,
    action: entry.action,
    community_id: entry.communityId,
    subject_kind: entry.subject.kind,
    subject_id: entry.subject.id,
    details: JSON.stringify(entry.details ?? {}),
  });
}

export interface AuditChainBreak {
  /** null when the entries missing were at the end: nothing is left to name */
  id: number | null;
  seq: number;
  reason: string;
}

export interface AuditChainVerdict {
  ok: boolean;
  entries: number;
  /** hex of the last entry's hash: keep it elsewhere to catch a rewrite of the whole tail later */
  head: string | null;
  firstBadEntry?: AuditChainBreak;
}

interface ChainRow {
  seq: number;
  id: number;
  prev_hash: Buffer | null;
  hash: Buffer | null;
  /** sha256(prev_hash || content) as the database computes it now from the stored row */
  recomputed: Buffer | null;
}

interface ChainEnd {
  seq: number;
  id: number | null;
  hash: Buffer | null;
}

const GENESIS = Buffer.alloc(32);
const BATCH = 10_000;
const CHAIN_ROWS = `
  SELECT a.seq, a.id, a.prev_hash, a.hash,
         sha256(a.prev_hash || platform.audit_entry_content(a)) AS recomputed
  FROM platform.audit_log a WHERE a.seq > ? ORDER BY a.seq LIMIT ?`;

const same = (a: Buffer | null, b: Buffer | null) => a !== null && b !== null && a.equals(b);

function linkBreak(row: ChainRow, last: ChainEnd): string | undefined {
  if (row.seq !== last.seq + 1)
    return `seq ${row.seq} follows seq ${last.seq}: the entries between them are missing`;
  if (!same(row.prev_hash, last.hash))
    return 'its prev_hash is not the hash of the entry before it';
  if (!same(row.hash, row.recomputed)) return 'its content does not match its hash';
  return undefined;
}

/** The walk's end against platform.audit_head, which the chain trigger moves with every entry. */
function headBreak(head: { seq: number; hash: Buffer } | undefined, last: ChainEnd) {
  if (!head)
    return {
      id: null,
      seq: last.seq + 1,
      reason: 'the chain head (platform.audit_head) is missing',
    };
  if (head.seq > last.seq) {
    const reason = `entries ${last.seq + 1} to ${head.seq} are missing from the end (the chain head is at seq ${head.seq})`;
    return { id: null, seq: last.seq + 1, reason };
  }
  if (head.seq === last.seq && same(head.hash, last.hash)) return undefined;
  const reason = `the last entry is not the chain head (seq ${head.seq}): written around the chain trigger, or the head moved`;
  return { id: last.id, seq: last.seq, reason };
}

/**
 * Recomputes every entry's hash from its stored content, in chain (seq) order, and checks each
 * link and the chain head; a batch of rows per query, in one snapshot (repeatable read) so rows
 * appended meanwhile are not half seen. `db` must not be a transaction already.
 */
export async function verifyAuditChain(
  db: Knex,
  options: { batchSize?: number } = {},
): Promise<AuditChainVerdict> {
  const batchSize = options.batchSize ?? BATCH;
  return db.transaction(
    async (trx) => {
      const head = (await trx('platform.audit_head').first('seq', 'hash')) as
        { seq: number; hash: Buffer } | undefined;
      let last: ChainEnd = { seq: 0, id: null, hash: GENESIS };
      let entries = 0;
      let firstBadEntry: AuditChainBreak | undefined;
      for (;;) {
        const { rows } = (await trx.raw(CHAIN_ROWS, [last.seq, batchSize])) as { rows: ChainRow[] };
        for (const row of rows) {
          const reason = linkBreak(row, last);
          if (reason) firstBadEntry ??= { id: row.id, seq: row.seq, reason };
          last = row;
          entries++;
        }
        if (rows.length < batchSize) break;
      }
      firstBadEntry ??= headBreak(head, last);
      return {
        ok: !firstBadEntry,
        entries,
        head: entries > 0 && last.hash ? last.hash.toString('hex') : null,
        ...(firstBadEntry ? { firstBadEntry } : {}),
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}
