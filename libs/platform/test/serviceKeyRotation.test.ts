// Service key rotation with overlap against a real PostgreSQL database: a reset keeps the replaced
// key accepted for the grace on every replica, bounded, and purges it once the grace is over.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveSharedKey, generateKeyPair } from '@idv/crypto';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  localKeyring,
  MAX_PREVIOUS_SERVICE_KEYS,
  platformMigrations,
  ServiceKeyStore,
  type ServiceKeyStoreOptions,
} from '../src/index.ts';

const HOUR = 3600;
/** no rotation here: the keyring never writes to it */
const KEYS_DIR = join(tmpdir(), 'idv-unused-keys');

describe('service key rotation', function () {
  this.timeout(30_000);
  let t: TestDatabase;
  const masterKey = randomBytes(32);
  const store = (options: ServiceKeyStoreOptions = {}) =>
    new ServiceKeyStore(t.db, localKeyring(t.db, masterKey, KEYS_DIR), 'docverify', {
      refreshMs: 0,
      ...options,
    });
  const retiredRows = async () =>
    (await t.db('platform.retired_service_keys').where({ service: 'docverify' })).length;

  beforeEach(async () => {
    t = await createTestDatabase([platformMigrations]);
  });
  afterEach(async () => t?.drop());

  it('keeps the replaced key accepted for the grace, at the replica that reset and at another', async () => {
    const resetter = store({ graceSeconds: HOUR });
    const replica = store();
    const old = (await resetter.currentKey()).key;
    expect((await replica.keySet()).current.key.keyId).to.equal(old.keyId);

    const created = await resetter.reset(old.keyId);
    for (const keys of [await resetter.keySet(), await replica.keySet()]) {
      expect(keys.current.key.keyId).to.equal(created?.keyId);
      expect(keys.previous.map((p) => p.key.keyId)).to.deep.equal([old.keyId]);
      const until = keys.previous[0]!.acceptedUntil.getTime();
      expect(until).to.be.closeTo(Date.now() + HOUR * 1000, 60_000);
      // the previous key still agrees with callers as it did before the reset
      const caller = generateKeyPair();
      expect(keys.previous[0]!.agreement.sharedKey(caller.publicKey)).to.deep.equal(
        deriveSharedKey(old.keySecret, caller.publicKey),
      );
    }
    // /servicekeys and the reset itself still concern only the current key
    expect((await replica.currentKey()).key.keyId).to.equal(created?.keyId);
    expect(await replica.reset(old.keyId)).to.equal(undefined);
  });

  it(`keeps every key of resets within the grace, at most ${MAX_PREVIOUS_SERVICE_KEYS}, newest first`, async () => {
    const resetter = store({ graceSeconds: HOUR });
    const made = [(await resetter.currentKey()).key.keyId];
    for (let i = 0; i < MAX_PREVIOUS_SERVICE_KEYS + 2; i += 1) {
      made.push((await resetter.reset(made.at(-1)!))!.keyId);
    }
    const keys = await store().keySet();
    expect(keys.current.key.keyId).to.equal(made.at(-1));
    expect(keys.previous.map((p) => p.key.keyId)).to.deep.equal(
      made.slice(0, -1).reverse().slice(0, MAX_PREVIOUS_SERVICE_KEYS),
    );
    expect(await retiredRows()).to.equal(MAX_PREVIOUS_SERVICE_KEYS);
  });

  it('a reset with a grace of 0 leaves only the new key accepted', async () => {
    const withGrace = store({ graceSeconds: HOUR });
    const first = (await withGrace.currentKey()).key.keyId;
    const second = (await withGrace.reset(first))!.keyId;
    expect((await withGrace.keySet()).previous).to.have.length(1);

    const third = await store({ graceSeconds: 0 }).reset(second);
    const keys = await withGrace.keySet();
    expect(keys.current.key.keyId).to.equal(third?.keyId);
    expect(keys.previous).to.deep.equal([]);
    expect(await retiredRows()).to.equal(0);
  });

  it('stops accepting a previous key when its grace ends, even between refreshes, and purges it', async () => {
    const resetter = store({ graceSeconds: 1 });
    const cached = store({ refreshMs: 60_000 });
    const old = (await cached.currentKey()).key.keyId;
    await resetter.reset(old);
    const beforeRefresh = await store({ refreshMs: 60_000 }).keySet();
    expect(beforeRefresh.previous.map((p) => p.key.keyId)).to.deep.equal([old]);
    const kept = store({ refreshMs: 60_000 });
    expect((await kept.keySet()).previous).to.have.length(1);

    // no re-read: the grace is checked on use, here 1.2 s on
    expect((await kept.keySet(Date.now() + 1200)).previous).to.deep.equal([]);
    expect(await retiredRows()).to.equal(1);
    // the grace ends where it is stored too (moved back, not waited for)
    await t
      .db('platform.retired_service_keys')
      .where({ service: 'docverify' })
      .update({ accepted_until: t.db.raw("now() - interval '1 second'") });
    // the next read finds it expired and deletes the sealed key
    expect((await store().keySet()).previous).to.deep.equal([]);
    expect(await retiredRows()).to.equal(0);
  });
});
