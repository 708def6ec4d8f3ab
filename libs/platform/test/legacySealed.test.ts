// The move of values sealed under MASTER_KEY alone (mk1: text, version-1 bytes) under data keys,
// against a real PostgreSQL database: every value opens as before under its owner's data key, the
// count of what is left falls to 0, and a run stopped half way goes on where it stopped.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox, dataKeyIdOf } from '@idv/crypto';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  countLegacyValues,
  localKeyring,
  migrateLegacyValues,
  platformMigrations,
  type SealedColumn,
} from '../src/index.ts';

describe('values sealed before envelopes, moved under data keys', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let dir: string;
  const master = randomBytes(32);
  const legacy = createSecretBox(master);
  const COLUMNS: SealedColumn[] = [
    {
      table: 'legacy.things',
      column: 'secret',
      key: ['id'],
      owner: (row) => ({ kind: 'thing', id: String(row.id) }),
      context: (row) => `thing:${String(row.id)}`,
    },
    {
      table: 'legacy.things',
      column: 'picture',
      key: ['id'],
      bytes: true,
      owner: (row) => ({ kind: 'thing', id: String(row.id) }),
      context: (row) => `picture:${String(row.id)}`,
    },
  ];
  const keyring = () => localKeyring(t.db, master, dir, { legacyColumns: COLUMNS });

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
    dir = mkdtempSync(join(tmpdir(), 'idv-legacy-'));
    await t.db.raw('CREATE SCHEMA legacy');
    await t.db.raw('CREATE TABLE legacy.things (id uuid PRIMARY KEY, secret text, picture bytea)');
  });
  after(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves every value, stopped half way or not, each opening as before', async () => {
    const ids = Array.from({ length: 25 }, () => randomUUID());
    await t.db('legacy.things').insert(
      ids.map((id, i) => ({
        id,
        secret: legacy.seal(`secret ${i}`, `thing:${id}`),
        picture:
          i % 3 === 0 ? null : legacy.sealBytes(Buffer.from(`picture ${i}`), `picture:${id}`),
      })),
    );
    expect(await countLegacyValues(t.db, COLUMNS)).to.equal(25 + 16);
    const status = await keyring().status();
    expect(status.keys.find((k) => k.keyId === status.current)!.values).to.equal(41);

    // a run that stops after its first batch (the process killed, say)
    const stopped = await migrateLegacyValues(t.db, keyring(), COLUMNS, {
      batch: 10,
      progress: () => {
        throw new Error('stopped');
      },
    }).then(
      () => 'finished',
      (err: Error) => err.message,
    );
    expect(stopped).to.equal('stopped');
    expect(await countLegacyValues(t.db, COLUMNS)).to.equal(31);
    const moved: number[] = [];
    expect(
      await migrateLegacyValues(t.db, keyring(), COLUMNS, {
        batch: 10,
        progress: (n) => moved.push(n),
      }),
    ).to.equal(31);
    expect(moved.at(-1)).to.equal(31);
    expect(await countLegacyValues(t.db, COLUMNS)).to.equal(0);
    expect(await migrateLegacyValues(t.db, keyring(), COLUMNS)).to.equal(0);

    const fresh = keyring();
    const rows = await t.db('legacy.things');
    for (const row of rows) {
      const i = ids.indexOf(row.id);
      expect(dataKeyIdOf(row.secret)).to.be.a('string');
      expect(await fresh.open(row.secret, `thing:${row.id}`)).to.equal(`secret ${i}`);
      if (i % 3 === 0) expect(row.picture).to.equal(null);
      else
        expect((await fresh.openBytes(row.picture, `picture:${row.id}`)).toString()).to.equal(
          `picture ${i}`,
        );
      // the text and the picture of a thing share its one data key
      if (row.picture) expect(dataKeyIdOf(row.picture)).to.equal(dataKeyIdOf(row.secret));
    }
  });

  it("retires MASTER_KEY's key only once nothing is sealed under it alone nor wrapped under it", async () => {
    const ring = keyring();
    const masterId = (await ring.status()).keys[0]!.keyId;
    await t.db('legacy.things').insert({ id: randomUUID(), secret: legacy.seal('late', 'x') });
    await ring.rotate();
    await ring.rewrap();
    const refused = await ring.retire(masterId).then(
      () => 'retired',
      (err: Error) => err.message,
    );
    expect(refused).to.match(/still opens 1 values sealed before envelopes/);
    await t.db.raw("DELETE FROM legacy.things WHERE secret LIKE 'mk1:%'");
    await ring.retire(masterId);
    expect((await ring.status()).keys[0]).to.include({
      keyId: masterId,
      state: 'retired',
      values: 0,
    });
  });
});
