// The audit log's hash chain on real PostgreSQL: entries written concurrently (some rolled back)
// chain in the order the trigger ran and verify; a superuser's edits (a changed row, a deleted
// row, a rewritten link, a rewritten tail, a cut end) are found and named; rows written before
// migration 009 are chained by it; the hash of an entry matches an encoding computed here.
import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { createDatabase, migrate, type Knex, type MigrationSet } from '@idv/db';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  appendAudit,
  platformMigrations,
  verifyAuditChain,
  type AuditEntry,
} from '../src/index.ts';

const entry = (n: number): AuditEntry => ({
  actor: 'admin-cli:testy',
  action: 'data.erased',
  communityId: randomUUID(),
  subject: { kind: 'session', id: `session-${n}` },
  details: { runs: n, dataKeys: 1 },
});

async function appendMany(db: Knex, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) await appendAudit(db, entry(n));
}

/** What only the database owner can do: write past the append-only trigger. */
async function asSuperuser(db: Knex, ...statements: [string, unknown[]?][]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('ALTER TABLE platform.audit_log DISABLE TRIGGER audit_log_append_only');
    for (const [sql, bindings] of statements)
      await trx.raw(sql, (bindings ?? []) as Knex.RawBinding[]);
    await trx.raw('ALTER TABLE platform.audit_log ENABLE TRIGGER audit_log_append_only');
  });
}

async function idAt(db: Knex, seq: number): Promise<number> {
  return ((await db('platform.audit_log').where({ seq }).first('id')) as { id: number }).id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('audit log hash chain', function () {
  this.timeout(60_000);

  describe('writers', () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase([platformMigrations]);
    });
    after(() => t.drop());

    it('verifies an empty log with no head', async () => {
      expect(await verifyAuditChain(t.db)).to.deep.equal({ ok: true, entries: 0, head: null });
    });

    it('chains 50 entries appended in parallel transactions, the rolled-back ones leaving no gap', async () => {
      const wide = createDatabase({ url: t.url, poolMax: 20 });
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 50 }, (_, n) =>
            wide.transaction(async (trx) => {
              await appendAudit(trx, entry(n));
              await sleep(Math.random() * 5); // the head stays locked until the transaction ends
              if (n % 5 === 0) throw new Error('rolled back');
            }),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'rejected')).to.have.length(10);
      } finally {
        await wide.destroy();
      }
      const seqs = (await t.db('platform.audit_log').orderBy('seq').pluck('seq')) as number[];
      expect(seqs).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
      const verdict = await verifyAuditChain(t.db);
      expect(verdict).to.include({ ok: true, entries: 40 });
      const head = (await t.db('platform.audit_head').first('seq', 'hash')) as {
        seq: number;
        hash: Buffer;
      };
      expect(head.seq).to.equal(40);
      expect(verdict.head).to.equal(head.hash.toString('hex'));
    });

    it('walks by seq, not id: ids from the sequence may stand in another order', async () => {
      await t.db.raw("SELECT setval('platform.audit_log_id_seq', 100000)");
      await appendAudit(t.db, entry(1));
      await t.db.raw("SELECT setval('platform.audit_log_id_seq', 50000)");
      await appendAudit(t.db, entry(2));
      const last = (await t
        .db('platform.audit_log')
        .orderBy('seq', 'desc')
        .limit(2)
        .pluck('id')) as number[];
      expect(last).to.deep.equal([50001, 100001]);
      expect(await verifyAuditChain(t.db, { batchSize: 7 })).to.include({ ok: true, entries: 42 });
    });

    it('chains every row of a multi-row insert and overwrites chain columns a caller sets', async () => {
      const row = (n: number) => ({
        actor: 'admin-cli:testy',
        action: 'test.bulk',
        subject_kind: 'session',
        subject_id: `bulk-${n}`,
        seq: 1,
        prev_hash: Buffer.alloc(32, 1),
        hash: Buffer.alloc(32, 2),
      });
      await t.db('platform.audit_log').insert([row(1), row(2), row(3)]);
      const seqs = (await t
        .db('platform.audit_log')
        .where({ action: 'test.bulk' })
        .orderBy('seq')
        .pluck('seq')) as number[];
      expect(seqs).to.deep.equal([43, 44, 45]);
      expect(await verifyAuditChain(t.db)).to.include({ ok: true, entries: 45 });
    });

    it('refuses to move or remove the head outside the chain trigger', async () => {
      const refusal = (sql: string) =>
        t.db.raw(sql).then(
          () => 'done',
          (err: Error) => err.message,
        );
      expect(await refusal('UPDATE platform.audit_head SET seq = 0')).to.match(/moves only with/);
      expect(await refusal('DELETE FROM platform.audit_head')).to.match(/moves only with/);
    });
  });

  describe('tampering', () => {
    let t: TestDatabase;
    let recordedHead: string | null;
    beforeEach(async () => {
      t = await createTestDatabase([platformMigrations]);
      await appendMany(t.db, 10);
      recordedHead = (await verifyAuditChain(t.db)).head;
    });
    afterEach(() => t.drop());

    it('finds a row whose details were changed and names it', async () => {
      const id = await idAt(t.db, 4);
      await asSuperuser(t.db, [
        `UPDATE platform.audit_log SET details = '{"runs": 0}' WHERE seq = 4`,
      ]);
      const verdict = await verifyAuditChain(t.db, { batchSize: 3 });
      expect(verdict).to.include({ ok: false, entries: 10, head: recordedHead });
      expect(verdict.firstBadEntry).to.deep.include({ id, seq: 4 });
      expect(verdict.firstBadEntry?.reason).to.match(/content does not match/);
    });

    it('finds a row deleted from the middle', async () => {
      const next = await idAt(t.db, 6);
      await asSuperuser(t.db, ['DELETE FROM platform.audit_log WHERE seq = 5']);
      const verdict = await verifyAuditChain(t.db);
      expect(verdict).to.include({ ok: false, entries: 9 });
      expect(verdict.firstBadEntry).to.deep.include({ id: next, seq: 6 });
      expect(verdict.firstBadEntry?.reason).to.match(/seq 6 follows seq 4/);
    });

    it('finds a changed row whose hash and the next prev_hash were rewritten to match, one entry on', async () => {
      const next = await idAt(t.db, 5);
      await asSuperuser(
        t.db,
        [`UPDATE platform.audit_log SET details = '{"runs": 0}' WHERE seq = 4`],
        [
          'UPDATE platform.audit_log a SET hash = sha256(a.prev_hash || platform.audit_entry_content(a)) WHERE seq = 4',
        ],
        [
          'UPDATE platform.audit_log a SET prev_hash = p.hash FROM platform.audit_log p WHERE a.seq = 5 AND p.seq = 4',
        ],
      );
      const verdict = await verifyAuditChain(t.db);
      expect(verdict).to.include({ ok: false, entries: 10 });
      expect(verdict.firstBadEntry).to.deep.include({ id: next, seq: 5 });
      expect(verdict.firstBadEntry?.reason).to.match(/content does not match/);
    });

    it('finds a whole tail rewritten by its head; with the head rewritten too, only a head kept elsewhere does', async () => {
      const rechain: [string, unknown[]][] = [];
      for (let seq = 4; seq <= 10; seq++) {
        rechain.push([
          'UPDATE platform.audit_log a SET prev_hash = p.hash FROM platform.audit_log p WHERE a.seq = ? AND p.seq = ?',
          [seq, seq - 1],
        ]);
        rechain.push([
          'UPDATE platform.audit_log a SET hash = sha256(a.prev_hash || platform.audit_entry_content(a)) WHERE seq = ?',
          [seq],
        ]);
      }
      await asSuperuser(
        t.db,
        [`UPDATE platform.audit_log SET details = '{"runs": 0}' WHERE seq = 4`],
        ...rechain,
      );
      const verdict = await verifyAuditChain(t.db);
      expect(verdict).to.include({ ok: false, entries: 10 });
      expect(verdict.firstBadEntry).to.deep.include({ id: await idAt(t.db, 10), seq: 10 });
      expect(verdict.firstBadEntry?.reason).to.match(/not the chain head/);

      await t.db.transaction(async (trx) => {
        await trx.raw('ALTER TABLE platform.audit_head DISABLE TRIGGER audit_head_guard');
        await trx.raw(
          'UPDATE platform.audit_head SET hash = (SELECT hash FROM platform.audit_log WHERE seq = 10)',
        );
        await trx.raw('ALTER TABLE platform.audit_head ENABLE TRIGGER audit_head_guard');
      });
      const rewritten = await verifyAuditChain(t.db);
      expect(rewritten).to.include({ ok: true, entries: 10 });
      expect(rewritten.head).to.not.equal(recordedHead);
    });

    it('finds entries cut from the end by the chain head', async () => {
      await asSuperuser(t.db, ['DELETE FROM platform.audit_log WHERE seq > 8']);
      const verdict = await verifyAuditChain(t.db);
      expect(verdict).to.include({ ok: false, entries: 8 });
      expect(verdict.firstBadEntry).to.deep.equal({
        id: null,
        seq: 9,
        reason: 'entries 9 to 10 are missing from the end (the chain head is at seq 10)',
      });
    });
  });

  describe('migration 009', () => {
    let t: TestDatabase;
    before(async () => {
      const upTo008: MigrationSet = {
        schema: 'platform',
        migrations: Object.fromEntries(
          Object.entries(platformMigrations.migrations).filter(([name]) => name < '009'),
        ),
      };
      t = await createTestDatabase([upTo008]);
    });
    after(() => t.drop());

    it('chains the rows written before it in id order, hashed as documented', async () => {
      const old = (id: number, at: string, details: string) => ({
        id,
        at,
        actor: 'admin-cli:testy',
        action: 'data.erased',
        community_id: null,
        subject_kind: 'session',
        subject_id: `before-${id}`,
        details,
      });
      await t.db('platform.audit_log').insert(old(7, '2024-03-01 00:00:00+00', '{}'));
      await t
        .db('platform.audit_log')
        .insert(old(3, '2024-02-29 13:34:56.789012+01', '{"dataKeys": 1, "runs": 2}'));
      await migrate(t.db, [platformMigrations]);

      const rows = (await t
        .db('platform.audit_log')
        .orderBy('seq')
        .select('seq', 'id', 'prev_hash', 'hash')) as {
        seq: number;
        id: number;
        prev_hash: Buffer;
        hash: Buffer;
      }[];
      expect(rows.map((r) => [r.seq, r.id])).to.deep.equal([
        [1, 3],
        [2, 7],
      ]);
      // jsonb's text: ", " between items, object keys shorter first; `at` in UTC, microseconds
      const content =
        '["idv-audit/1", 1, 3, "2024-02-29T12:34:56.789012Z", "admin-cli:testy", "data.erased", null, "session", "before-3", {"runs": 2, "dataKeys": 1}]';
      const first = createHash('sha256').update(Buffer.alloc(32)).update(content).digest();
      expect(rows[0]!.prev_hash.equals(Buffer.alloc(32))).to.equal(true);
      expect(rows[0]!.hash.toString('hex')).to.equal(first.toString('hex'));
      expect(rows[1]!.prev_hash.equals(first)).to.equal(true);

      await appendAudit(t.db, entry(3));
      expect(await verifyAuditChain(t.db)).to.include({ ok: true, entries: 3 });
      expect(await t.db('platform.audit_log').max('seq as seq').first()).to.deep.equal({ seq: 3 });
    });
  });
});
