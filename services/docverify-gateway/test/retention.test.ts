// Data retention: nothing kept when off, read-once results purged on retrieval, timed ones purged
// by the sweep once their time is up (the clock is passed in, not waited for).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { localKeyring } from '@idv/platform';
import type { VerifyResult } from '@idv/contracts';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { retentionPlan, MAX_RETENTION_S } from '../src/retention/retentionPlan.ts';
import { VerificationStore } from '../src/verify/verificationStore.ts';

const result = (): VerifyResult => ({
  verificationId: randomUUID(),
  docId: 'doc-1',
  docType: 'dl',
  dvcID: 'kyc',
  status: 'verified',
  certifications: [],
});

describe('docverify gateway: data retention', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let store: VerificationStore;
  let client: IdvClient;
  const now = new Date('2030-01-01T00:00:00Z');

  before(async () => {
    platform = await startPlatform();
    const { db } = platform.database;
    const masterKey = Buffer.from(platform.env.MASTER_KEY!, 'base64');
    store = new VerificationStore(db, localKeyring(db, masterKey, platform.env.MASTER_KEYS_DIR!));
    client = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.community,
    });
  });
  after(async () => platform?.stop());

  it('plans nothing when retention is off, unset or zero, and caps the rest at the session expiry', () => {
    expect(retentionPlan({}, now)).to.deep.equal({ keep: false });
    expect(retentionPlan({ dataRetention: { pii_retention_off: true } }, now)).to.deep.equal({
      keep: false,
    });
    expect(
      retentionPlan({ dataRetention: { pii_retention_off: false, pii_retention_ttl: 0 } }, now),
    ).to.deep.equal({ keep: false });
    const once = retentionPlan(
      { dataRetention: { pii_retention_off: false, pii_retention_ttl: -1 } },
      now,
    );
    expect(once).to.deep.equal({
      keep: true,
      mode: 'until_retrieved',
      expiresAt: new Date(now.getTime() + MAX_RETENTION_S * 1000),
    });
    const timed = retentionPlan(
      { dataRetention: { pii_retention_off: false, pii_retention_ttl: 30 } },
      now,
    );
    expect(timed).to.deep.equal({
      keep: true,
      mode: 'ttl',
      expiresAt: new Date(now.getTime() + 30_000),
    });
  });

  it('stores nothing with retention off', async () => {
    await store.keep(platform.community.id, result(), { keep: false });
    expect(
      await platform.database
        .db('docverify.verifications')
        .count<{ count: number }[]>('* as count'),
    ).to.deep.equal([{ count: 0 }]);
  });

  it('gives a read-once result to the first retrieval only, encrypted for the caller', async () => {
    const kept = result();
    await store.keep(
      platform.community.id,
      kept,
      retentionPlan(
        { dataRetention: { pii_retention_off: false, pii_retention_ttl: -1 } },
        new Date(),
      ),
    );
    const rows = JSON.stringify(await platform.database.db('docverify.verifications').select());
    expect(rows).not.to.contain('doc-1');
    const first = await client.request<{ data: string; publicKey: string }>(
      'GET',
      `/verification/${kept.verificationId}`,
    );
    expect(first.status).to.equal(200);
    // GET /verification answers a kept result as a completed verification, like an async run
    expect(await client.decryptJson(first.body.data)).to.deep.equal({
      verificationId: kept.verificationId,
      status: 'completed',
      result: kept,
    });
    expect((await client.request('GET', `/verification/${kept.verificationId}`)).status).to.equal(
      404,
    );
  });

  it('keeps a timed result until the sweep runs past its expiry', async () => {
    const kept = result();
    const plan = retentionPlan(
      { dataRetention: { pii_retention_off: false, pii_retention_ttl: 60 } },
      new Date(),
    );
    await store.keep(platform.community.id, kept, plan);
    expect((await client.request('GET', `/verification/${kept.verificationId}`)).status).to.equal(
      200,
    );
    expect((await client.request('GET', `/verification/${kept.verificationId}`)).status).to.equal(
      200,
    );
    const owner = { owner_kind: 'verification', owner_id: kept.verificationId };
    const { db } = platform.database;
    expect(await db('keys.data_keys').where(owner), 'its data key').to.have.length(1);
    expect(await store.sweep(new Date(Date.now() + 30_000))).to.equal(0);
    expect(await store.sweep(new Date(Date.now() + 61_000))).to.equal(1);
    // expiry takes the erasure's path: the data key is destroyed and in the ledger
    expect(await db('keys.data_keys').where(owner)).to.deep.equal([]);
    expect(await db('keys.erased_data_keys').where(owner)).to.have.length(1);
    expect((await client.request('GET', `/verification/${kept.verificationId}`)).status).to.equal(
      404,
    );
  });

  it('does not show a result to a licence of another community', async () => {
    const kept = result();
    await store.keep(
      platform.community.id,
      kept,
      retentionPlan(
        { dataRetention: { pii_retention_off: false, pii_retention_ttl: 60 } },
        new Date(),
      ),
    );
    const other = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.serviceElsewhere,
    });
    expect((await other.request('GET', `/verification/${kept.verificationId}`)).status).to.equal(
      404,
    );
    expect((await client.request('GET', '/verification/not-a-uuid')).status).to.equal(404);
  });
});
