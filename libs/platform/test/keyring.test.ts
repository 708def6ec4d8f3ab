// The keyring against a real PostgreSQL database: data keys stored wrapped and opened from the
// value alone, values sealed under MASTER_KEY before envelopes still opened, rotation while two
// "services" seal and open (nothing lost), status per key, retirement refused while anything
// needs the key, and erasure by destroying a data key, kept across a restore of the keystore.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox, DecryptError, localKeyId } from '@idv/crypto';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  DataKeyGone,
  localKeyring,
  platformMigrations,
  RetireRefused,
  type Keyring,
} from '../src/index.ts';

describe('keyring (envelope encryption, rotation, erasure)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let dir: string;
  const master = randomBytes(32);
  const keyring = (refreshMs = 5000) => localKeyring(t.db, master, dir, { refreshMs });
  const rejection = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (err: unknown) => err,
    );

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
    dir = mkdtempSync(join(tmpdir(), 'idv-keyring-'));
  });
  after(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seals under a new data key per owner and opens from the value alone, in another process too', async () => {
    const gateway = keyring();
    const run = await gateway.newDataKey({ kind: 'run', id: randomUUID() });
    const sealed = run.seal('{"name":"Testy McTestface"}', 'run:result');
    const image = run.sealBytes(Buffer.from('front image'), 'image:front');
    const worker = keyring(); // another process: nothing cached
    expect(await worker.open(sealed, 'run:result')).to.equal('{"name":"Testy McTestface"}');
    expect((await worker.openBytes(image, 'image:front')).toString()).to.equal('front image');
    expect(await rejection(worker.open(sealed, 'run:other'))).to.be.instanceOf(DecryptError);
    const row = await t.db('keys.data_keys').where({ id: run.id }).first();
    expect(row.wrapped.length).to.equal(60);
    expect(row.wrapped.includes(run.material())).to.equal(false);
  });

  it('opens values sealed under MASTER_KEY before envelopes (mk1:)', async () => {
    const legacy = createSecretBox(master);
    expect(await keyring().open(legacy.seal('old secret', 'verifier:x'), 'verifier:x')).to.equal(
      'old secret',
    );
    expect(
      (await keyring().openBytes(legacy.sealBytes(Buffer.from('old image'), 'c'), 'c')).toString(),
    ).to.equal('old image');
  });

  it('rotates while two services seal and open: nothing lost, every data key re-wrapped', async () => {
    const services = [keyring(50), keyring(50)];
    const before = (await services[0]!.status()).current;
    const sealed: { value: string; owner: string }[] = [];
    for (let i = 0; i < 300; i++) {
      const owner = randomUUID();
      const key = await services[i % 2]!.newDataKey({ kind: 'session', id: owner });
      sealed.push({ value: key.seal(`person ${i}`, owner), owner });
    }
    let stop = false;
    const failures: unknown[] = [];
    const traffic = services.map(async (service, s) => {
      for (let i = 0; !stop; i++) {
        try {
          const owner = randomUUID();
          const key = await service.newDataKey({ kind: 'session', id: owner });
          sealed.push({ value: key.seal(`new ${s} ${i}`, owner), owner });
          const old = sealed[i % sealed.length]!;
          await keyring(50).open(old.value, old.owner); // a process with nothing cached
        } catch (err) {
          failures.push(err);
        }
      }
    });
    const operator = keyring();
    const keyId = await operator.rotate();
    expect(keyId).to.not.equal(before);
    const progress: number[] = [];
    const rewrapped = await operator.rewrap({ batch: 64, progress: (n) => progress.push(n) });
    expect(rewrapped).to.be.at.least(300);
    expect(progress.at(-1)).to.equal(rewrapped);
    // the services follow the new current key within their refresh
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop = true;
    await Promise.all(traffic);
    expect(failures.slice(0, 3).map(String)).to.deep.equal([]);
    await operator.rewrap(); // keys wrapped under the old key within a service's refresh
    const status = await operator.status();
    expect(status.current).to.equal(keyId);
    expect(status.keys.find((k) => k.keyId === before)).to.include({ state: 'active', values: 0 });
    expect(status.keys.find((k) => k.keyId === keyId)!.values).to.equal(
      await t
        .db('keys.data_keys')
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
    );
    for (const { value, owner } of sealed)
      expect(await keyring().open(value, owner)).to.match(/^(person|new) /);
  });

  it('retires an old key only when nothing is under it, never the current one nor MASTER_KEY', async () => {
    const operator = keyring();
    const second = await operator.rotate();
    await operator.newDataKey({ kind: 'verifier', id: randomUUID() });
    const third = await operator.rotate();
    // data keys under `second` remain: refused, with the count
    const refused = await rejection(operator.retire(second));
    expect(refused).to.be.instanceOf(RetireRefused);
    expect((refused as Error).message).to.match(/still wrapped under/);
    expect(await rejection(operator.retire(third))).to.be.instanceOf(RetireRefused);
    await operator.rewrap();
    await operator.retire(second);
    const status = await operator.status();
    expect(status.keys.find((k) => k.keyId === second)).to.include({ state: 'retired', values: 0 });
    // MASTER_KEY still opens the mk1 values
    const initial = status.keys[0]!.keyId;
    expect(initial).to.equal(localKeyId(master));
    expect((await rejection(operator.retire(initial))) as Error).to.be.instanceOf(RetireRefused);
  });

  it('erases by destroying the data key: its values do not open anywhere, even after the keystore is restored', async () => {
    const gateway: Keyring = keyring();
    const owner = { kind: 'session', id: randomUUID() };
    const key = await gateway.newDataKey(owner);
    const sealed = key.sealBytes(Buffer.from('selfie'), 'image:selfie');
    // a backup of the keystore, taken before the erasure
    const backup = await t
      .db('keys.data_keys')
      .where({ owner_kind: owner.kind, owner_id: owner.id });
    expect(await gateway.destroy(owner)).to.deep.equal([key.id]);
    expect(await rejection(keyring().openBytes(sealed, 'image:selfie'))).to.be.instanceOf(
      DataKeyGone,
    );
    expect(await rejection(gateway.openBytes(sealed, 'image:selfie'))).to.be.instanceOf(
      DataKeyGone,
    );
    // the keystore's rows restored from the older backup: the ledger destroys them again
    await t.db('keys.data_keys').insert(backup);
    expect(await keyring().reapplyErasures()).to.equal(1);
    expect(await rejection(keyring().openBytes(sealed, 'image:selfie'))).to.be.instanceOf(
      DataKeyGone,
    );
    expect(await gateway.destroy(owner)).to.deep.equal([]);
  });

  it('makes no key again for an erased owner, and none a rolled-back transaction made', async () => {
    const ring = keyring();
    const owner = { kind: 'run', id: randomUUID() };
    await ring.newDataKey(owner);
    await ring.destroy(owner);
    expect(await rejection(ring.keyFor(owner))).to.be.instanceOf(DataKeyGone);
    // a key made inside a transaction that rolls back is not this owner's afterwards
    const other = { kind: 'session', id: randomUUID() };
    const made = await t.db
      .transaction(async (trx) => {
        const key = await ring.keyFor(other, trx);
        throw Object.assign(new Error('rolled back'), { key });
      })
      .catch((err: { key: { id: string } }) => err.key.id);
    const after = await ring.keyFor(other);
    expect(after.id).to.not.equal(made);
    expect(await t.db('keys.data_keys').where({ id: after.id })).to.have.length(1);
  });

  it('re-wraps past a key that does not unwrap, reporting it; refuses a data key under a retired key', async () => {
    const ring = keyring();
    const good = await ring.newDataKey({ kind: 'verifier', id: randomUUID() });
    const bad = randomUUID();
    const kekId = (await ring.status()).current;
    await t.db('keys.data_keys').insert({
      id: bad,
      kek_id: kekId,
      wrapped: Buffer.alloc(60),
      owner_kind: 'verifier',
      owner_id: randomUUID(),
    });
    const next = await ring.rotate();
    const failed: string[] = [];
    await ring.rewrap({ batch: 1, failed: (id) => failed.push(id) });
    expect(failed).to.deep.equal([bad]);
    expect((await t.db('keys.data_keys').where({ id: good.id }).first()).kek_id).to.equal(next);
    await t.db('keys.data_keys').where({ id: bad }).delete();
    await ring.retire(kekId);
    const late = await rejection(
      t.db('keys.data_keys').insert({
        id: randomUUID(),
        kek_id: kekId,
        wrapped: Buffer.alloc(60),
        owner_kind: 'x',
        owner_id: 'y',
      }),
    );
    expect(String(late)).to.contain('is retired');
  });
});
