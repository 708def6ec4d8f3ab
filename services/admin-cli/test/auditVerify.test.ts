// `audit verify` (DESIGN 2.5) against a fresh database: {ok, entries, head} for an intact log,
// and for a log a superuser edited, AuditChainBroken carrying the verdict that names the entry
// (main.ts prints that verdict on stdout and exits 1).
import { execFile } from 'node:child_process';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { appendAudit, platformMigrations } from '@idv/platform';
import { AuditChainBroken, auditCommands } from '../src/auditCommands.ts';
import type { CommandContext } from '../src/commands.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;

describe('admin CLI: audit verify', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let ctx: CommandContext;
  const auditVerify = () => auditCommands['audit verify']!(ctx, {});

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
    ctx = {
      db: t.db,
      master: { key: randomBytes(32), development: true },
      keyring: () => Promise.reject(new Error('audit verify opens no keyring')),
    };
  });
  after(() => t.drop());

  it('answers {ok, entries, head} for an empty log', async () => {
    expect(await auditVerify()).to.deep.equal({ ok: true, entries: 0, head: null });
  });

  it("answers the chain's head for an intact log", async () => {
    for (const id of ['session-1', 'session-2', 'session-3']) {
      await appendAudit(t.db, {
        actor: 'admin-cli:testy',
        action: 'data.erased',
        communityId: null,
        subject: { kind: 'session', id },
      });
    }
    const head = (await t.db('platform.audit_head').first('hash')) as { hash: Buffer };
    expect(await auditVerify()).to.deep.equal({
      ok: true,
      entries: 3,
      head: head.hash.toString('hex'),
    });
  });

  it('refuses with the verdict naming the first bad entry when a row was changed', async () => {
    const second = (await t.db('platform.audit_log').where({ seq: 2 }).first('id')) as {
      id: number;
    };
    await t.db.transaction(async (trx) => {
      await trx.raw('ALTER TABLE platform.audit_log DISABLE TRIGGER audit_log_append_only');
      await trx.raw("UPDATE platform.audit_log SET actor = 'someone-else' WHERE seq = 2");
      await trx.raw('ALTER TABLE platform.audit_log ENABLE TRIGGER audit_log_append_only');
    });
    const err = await auditVerify().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(AuditChainBroken);
    const { verdict, message } = err as AuditChainBroken;
    expect(verdict).to.deep.include({ ok: false, entries: 3 });
    expect(verdict.head).to.match(/^[0-9a-f]{64}$/);
    expect(verdict.firstBadEntry).to.deep.include({ id: second.id, seq: 2 });
    expect(message).to.equal(
      `the audit log's hash chain breaks at seq 2 (id ${second.id}): its content does not match its hash`,
    );
  });

  it('through the CLI: prints the verdict on stdout and exits 1 for the tampered log', async () => {
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        'npm',
        ['run', '-s', 'admin', '--', 'audit', 'verify'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: t.url,
            MASTER_KEY: randomBytes(32).toString('base64'),
          },
        },
        (_err, stdout) => resolve({ code: child.exitCode, stdout }),
      );
    });
    expect(run.code).to.equal(1);
    expect(JSON.parse(run.stdout)).to.deep.include({ ok: false, entries: 3 });
  });
});
