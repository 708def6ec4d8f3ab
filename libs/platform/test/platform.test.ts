// Platform data against a real PostgreSQL database made for this suite.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { RECORD_FIRST_USES } from '../src/replayGuard.ts';
import {
  LicenceStore,
  NotFoundInPlatform,
  DuplicateInPlatform,
  InvalidInPlatform,
  localKeyring,
  platformMigrations,
  ReplayGuard,
  ServiceKeyStore,
  ServiceKeyUnreadable,
  TenantStore,
} from '../src/index.ts';

describe('platform data', () => {
  let t: TestDatabase;
  let tenants: TenantStore;
  const masterKey = randomBytes(32);
  /** a keyring of `key` over the test database; `development`: it adopts its own key */
  const ring = (key: Buffer, development = false) =>
    localKeyring(t.db, key, join(tmpdir(), 'idv-unused-keys'), { adoptInitialKey: development });

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
    tenants = new TenantStore(t.db);
  });
  after(async () => t?.drop());

  describe('tenants and communities', () => {
    it('creates and finds a community by id and by name, each lookup only by its own', async () => {
      const tenant = await tenants.createTenant('Acme Test Bank');
      const community = await tenants.createCommunity(tenant.id, 'acme-retail');
      expect(community).to.include({ name: 'acme-retail', tenantId: tenant.id });
      expect(await tenants.findCommunityById(community.id)).to.deep.equal(community);
      expect(await tenants.findCommunityByName('acme-retail')).to.deep.equal(community);
      expect(await tenants.findCommunityById('acme-retail')).to.equal(undefined);
      expect(await tenants.findCommunityByName(community.id)).to.equal(undefined);
      expect(await tenants.findCommunityByName('nope')).to.equal(undefined);
    });
    it('refuses a community name shaped like an id (it could pass for another community)', async () => {
      const tenant = await tenants.createTenant('Uuid Name Tenant');
      const victim = await tenants.createCommunity(tenant.id, 'victim-community');
      for (const name of [victim.id, victim.id.toUpperCase(), randomUUID()]) {
        await tenants.createCommunity(tenant.id, name).then(
          () => expect.fail(`${name} accepted`),
          (err: unknown) => expect(err).to.be.instanceOf(InvalidInPlatform),
        );
      }
      // a community named like an id (stored before this rule) is still found by name only
      await t.db('platform.communities').insert({ tenant_id: tenant.id, name: victim.id });
      expect(await tenants.findCommunityById(victim.id)).to.deep.include({
        name: 'victim-community',
      });
      expect(await tenants.findCommunityByName(victim.id)).to.not.deep.include({ id: victim.id });
    });
    it('refuses duplicates and unknown tenants with named errors', async () => {
      await tenants.createTenant('Dup Tenant');
      await tenants.createTenant('Dup Tenant').then(
        () => expect.fail('duplicate accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(DuplicateInPlatform),
      );
      await tenants.createCommunity(randomUUID(), 'orphan').then(
        () => expect.fail('orphan accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(NotFoundInPlatform),
      );
      await tenants.createCommunity('not-a-uuid', 'orphan2').then(
        () => expect.fail('orphan accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(NotFoundInPlatform),
      );
    });
  });

  describe('licences', () => {
    it('stores only the hash and checks validity, expiry and disabling', async () => {
      const tenant = await tenants.createTenant('Licence Tenant');
      const community = await tenants.createCommunity(tenant.id, 'licence-community');
      const store = new LicenceStore(t.db, 0);
      const { licenseKey, licence } = await store.create({
        level: 'service',
        communityIds: [community.id],
      });
      const rows = await t.db('platform.licences').select();
      expect(JSON.stringify(rows)).not.to.contain(licenseKey);

      const verdict = await store.check(licenseKey);
      expect(verdict.ok).to.equal(true);
      if (verdict.ok)
        expect(verdict.licence.communities.map((c) => c.id)).to.deep.equal([community.id]);
      expect(await store.check('lk_unknown')).to.deep.equal({ ok: false, reason: 'unknown' });

      await store.setDisabled(licence.id, true);
      expect(await store.check(licenseKey)).to.deep.equal({ ok: false, reason: 'disabled' });

      const expired = await store.create({
        level: 'system',
        communityIds: [],
        expiresAt: new Date(Date.now() - 1000),
      });
      expect(await store.check(expired.licenseKey)).to.deep.equal({ ok: false, reason: 'expired' });
    });
    it('refuses a licence for a community that does not exist, creating nothing', async () => {
      const store = new LicenceStore(t.db, 0);
      const before = await t.db('platform.licences').count<{ count: number }[]>('* as count');
      await store.create({ level: 'service', communityIds: [randomUUID()] }).then(
        () => expect.fail('accepted'),
        (err: unknown) => expect(err).to.be.instanceOf(NotFoundInPlatform),
      );
      const after = await t.db('platform.licences').count<{ count: number }[]>('* as count');
      expect(after[0]?.count).to.equal(before[0]?.count);
    });
  });

  describe('service keys', () => {
    it('makes one key per service even when replicas race, sealed at rest', async () => {
      const replicas = [1, 2, 3].map(() => new ServiceKeyStore(t.db, ring(masterKey), 'docverify'));
      const keys = await Promise.all(replicas.map((r) => r.currentKey()));
      expect(new Set(keys.map((k) => k.key.keyId)).size).to.equal(1);
      const row = await t.db('platform.service_keys').where({ service: 'docverify' }).first();
      expect(row.private_key_sealed).to.match(/^dk1\./);
      expect(row.private_key_sealed).not.to.contain(keys[0]!.key.keySecret);
    });
    it('resets only the current key and other replicas follow after the refresh', async () => {
      const a = new ServiceKeyStore(t.db, ring(masterKey), 'webhooks', { refreshMs: 0 });
      const b = new ServiceKeyStore(t.db, ring(masterKey), 'webhooks', { refreshMs: 0 });
      const before = (await a.currentKey()).key;
      expect(await a.reset('AAAA')).to.equal(undefined);
      const created = await a.reset(before.keyId.replace(/\+/g, '-').replace(/\//g, '_'));
      expect(created?.keyId).to.be.a('string').and.not.equal(before.keyId);
      expect((await b.currentKey()).key.keyId).to.equal(created?.keyId);
    });
    it('refuses to open keys sealed under another master key with a clear error', async () => {
      await new ServiceKeyStore(t.db, ring(masterKey), 'oauth').currentKey();
      await new ServiceKeyStore(t.db, ring(randomBytes(32)), 'oauth').currentKey().then(
        () => expect.fail('opened'),
        (err: unknown) => expect(err).to.be.instanceOf(ServiceKeyUnreadable),
      );
    });
    it('replaces such a key once in development, even when replicas race', async () => {
      const old = (await new ServiceKeyStore(t.db, ring(masterKey), 'oauth').currentKey()).key
        .keyId;
      const devKey = randomBytes(32);
      const warnings: string[] = [];
      const options = { replaceUnreadable: true, warn: (line: string) => warnings.push(line) };
      const replicas = [1, 2, 3].map(
        () => new ServiceKeyStore(t.db, ring(devKey, true), 'oauth', options),
      );
      const keys = await Promise.all(replicas.map((r) => r.currentKey()));
      expect(new Set(keys.map((k) => k.key.keyId)).size).to.equal(1);
      expect(keys[0]!.key.keyId).not.to.equal(old);
      expect(warnings).to.have.length(1);
    });
  });

  describe('replay guard', () => {
    it('accepts a uuid once and forgets it after it expires', async () => {
      const guard = new ReplayGuard(t.db);
      const uuid = randomUUID();
      const now = Math.floor(Date.now() / 1000);
      expect(await guard.firstUse(uuid, now + 60)).to.equal(true);
      expect(await guard.firstUse(uuid, now + 60)).to.equal(false);
      const old = randomUUID();
      await guard.firstUse(old, now - 10);
      expect(await guard.sweep()).to.be.at.least(1);
      expect(await guard.firstUse(old, now + 60)).to.equal(true);
    });

    it('of concurrent uses, sharing one statement, accepts each uuid exactly once', async () => {
      const guard = new ReplayGuard(t.db);
      const now = Math.floor(Date.now() / 1000);
      const [a, b, seen] = [randomUUID(), randomUUID(), randomUUID()];
      await guard.firstUse(seen, now + 60);
      // made in one turn of the event loop, so they travel together
      const verdicts = await Promise.all(
        [a, b, a, seen, b, a].map((uuid) => guard.firstUse(uuid, now + 60)),
      );
      expect(verdicts).to.deep.equal([true, true, false, false, false, false]);
    });

    it('refuses a uuid PostgreSQL cannot store without failing the others of its batch', async () => {
      const guard = new ReplayGuard(t.db);
      const now = Math.floor(Date.now() / 1000);
      const good = randomUUID();
      const [bad, ok] = await Promise.allSettled([
        guard.firstUse('nul\u0000inside', now + 60),
        guard.firstUse(good, now + 60),
      ]);
      expect(bad.status).to.equal('rejected');
      expect(ok).to.deep.equal({ status: 'fulfilled', value: true });
    });

    it('commits without waiting for the WAL flush, in its own transaction only', async () => {
      const now = Math.floor(Date.now() / 1000);
      await t.db.transaction(async (trx) => {
        const setting = async () =>
          ((await trx.raw('SHOW synchronous_commit')) as { rows: { synchronous_commit: string }[] })
            .rows[0]!.synchronous_commit;
        const before = await setting();
        expect(before).to.equal('on');
        await trx.raw(RECORD_FIRST_USES.text.replace('$1', '?').replace('$2', '?'), [
          [randomUUID()],
          [now + 60],
        ]);
        expect(await setting()).to.equal('off');
      });
      const after = await t.db.raw('SHOW synchronous_commit');
      expect(after.rows[0].synchronous_commit).to.equal('on');
    });
  });
});
