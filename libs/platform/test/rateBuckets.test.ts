// The shared token buckets against a real PostgreSQL database: one replica exact, replicas bounded by
// what each may admit within one sync, requests given back, operator limits read at the next sync, no
// database no admission; an image budget's costs (megabytes) taken whole, over the burst only from a
// full bucket, which it empties.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createDatabase } from '@idv/db';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import {
  platformMigrations,
  RateBuckets,
  RateLimitStore,
  type RateDefaults,
  type RateSubject,
} from '../src/index.ts';

const SYNC_MS = 20;
// a refill too slow for any test here to see
const DEFAULTS: RateDefaults = {
  licence: { rps: 0.01, burst: 10 },
  community: { rps: 0, burst: 1 },
  tenant: { rps: 0.01, burst: 10 },
  // megabytes of decoded pixels
  images: { rps: 0.01, burst: 100 },
};

describe('shared rate buckets', () => {
  let t: TestDatabase;
  const replicas: RateBuckets[] = [];
  const replica = (defaults = DEFAULTS) => {
    const buckets = new RateBuckets(t.db, { defaults, syncMs: SYNC_MS });
    replicas.push(buckets);
    return buckets;
  };
  const licence = (): RateSubject => ({ scope: 'licence', id: randomUUID() });
  const admitted = async (buckets: RateBuckets, subjects: RateSubject[], times: number) => {
    let count = 0;
    for (let i = 0; i < times; i++) if ((await buckets.take(subjects)).admitted) count++;
    return count;
  };
  const synced = () => new Promise((resolve) => setTimeout(resolve, 5 * SYNC_MS));

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await t?.drop();
  });

  it('one replica admits exactly the burst, then refuses with the wait for the next request', async () => {
    const buckets = replica();
    const subject = licence();
    expect(await admitted(buckets, [subject], 15)).to.equal(10);
    const refused = await buckets.take([subject]);
    expect(refused).to.deep.include({ admitted: false, retryAfterS: 100 });
    if (refused.admitted) return;
    expect(refused.refusedBy).to.deep.include({ subject, rps: 0.01, burst: 10, remaining: 0 });
  });

  it('a subject without a limit (rps 0) is admitted and left out of the views', async () => {
    const community: RateSubject = { scope: 'community', id: randomUUID() };
    const decision = await replica().take([licence(), community]);
    expect(decision.admitted).to.equal(true);
    expect(decision.buckets.map((b) => b.subject.scope)).to.deep.equal(['licence']);
  });

  it('replicas add up: one sees what the other admitted after a sync', async () => {
    const [a, b] = [replica(), replica()];
    const subject = licence();
    expect(await admitted(a, [subject], 6)).to.equal(6);
    await synced();
    expect(await admitted(b, [subject], 10)).to.equal(4);
    await synced();
    expect(await admitted(a, [subject], 3)).to.equal(0);
  });

  it('replicas admitting at once exceed the limit by at most one bucket each, and repay it', async () => {
    const [a, b] = [replica(), replica()];
    const subject = licence();
    // both fresh on the empty bucket, then each spends its view of it before any sync
    await Promise.all([a.take([subject]), b.take([subject])]);
    const [fromA, fromB] = await Promise.all([
      admitted(a, [subject], 20),
      admitted(b, [subject], 20),
    ]);
    expect(1 + 1 + fromA + fromB).to.be.within(10, 20);
    await synced();
    const rows = await t.db('platform.rate_buckets').where({ subject_id: subject.id });
    expect(rows[0].tokens).to.be.below(1 - (fromA + fromB + 2 - 10));
    expect(await admitted(a, [subject], 3)).to.equal(0);
    expect(await admitted(b, [subject], 3)).to.equal(0);
  });

  it('a request given back (a replay) is available again, on this replica and the others, never beyond the burst', async () => {
    const [a, b] = [replica(), replica()];
    const subject = licence();
    const tenant: RateSubject = { scope: 'tenant', id: randomUUID() };
    expect(await admitted(a, [subject, tenant], 10)).to.equal(10);
    a.giveBack([subject, tenant]);
    a.giveBack([subject, tenant]);
    await synced();
    expect(await admitted(b, [subject, tenant], 5)).to.equal(2);
    // given back on a full bucket: still at most the burst
    const fresh = licence();
    await a.take([fresh]);
    for (let i = 0; i < 3; i++) a.giveBack([fresh]);
    await synced();
    expect(await admitted(b, [fresh], 15)).to.equal(10);
  });

  it("an operator's limit replaces the default at the next sync", async () => {
    const buckets = replica();
    const subject = licence();
    await new RateLimitStore(t.db).set(subject, { rps: 0.01, burst: 3 });
    expect(await admitted(buckets, [subject], 5)).to.equal(3);
    const community: RateSubject = { scope: 'community', id: randomUUID() };
    expect(await admitted(buckets, [community], 5)).to.equal(5);
    await synced();
    await new RateLimitStore(t.db).set(community, { rps: 0.01, burst: 1 });
    await synced();
    // a bucket that had no limit starts full under its first one
    expect(await admitted(buckets, [community], 3)).to.equal(1);
  });

  it('an image budget takes each cost whole, across replicas; a cost over the burst needs a full bucket and takes it', async () => {
    const [a, b] = [replica(), replica()];
    const images: RateSubject = { scope: 'images', id: randomUUID() };
    expect((await a.take([images], 60)).admitted).to.equal(true);
    const short = await a.take([images], 60);
    expect(short).to.deep.include({ admitted: false, retryAfterS: 2000 });
    if (!short.admitted) expect(short.refusedBy).to.deep.include({ remaining: 40, burst: 100 });
    await synced();
    expect((await b.take([images], 40)).admitted).to.equal(true);
    expect((await b.take([images], 1)).admitted).to.equal(false);
    // a cost over its size: only from a full bucket, and it takes the full bucket, no more
    const big: RateSubject = { scope: 'images', id: randomUUID() };
    expect((await a.take([big], 250)).admitted).to.equal(true);
    expect((await a.take([big], 1)).admitted).to.equal(false);
    await synced();
    const rows = await t.db('platform.rate_buckets').where({ subject_id: big.id });
    expect(rows[0].tokens).to.be.closeTo(0, 1);
    const zero = await a.take([big], 0).catch((err: unknown) => err);
    expect(zero).to.be.instanceOf(RangeError);
  });

  it('refuses to decide without the database: the request fails rather than passes', async () => {
    const gone = createDatabase({
      url: 'postgres://postgres@127.0.0.1:1/none',
      poolMax: 1,
      acquireTimeoutMs: 500,
    });
    const buckets = new RateBuckets(gone, { defaults: DEFAULTS, syncMs: SYNC_MS });
    let failed: unknown;
    await buckets.take([licence()]).catch((err: unknown) => (failed = err));
    expect(failed).to.be.instanceOf(Error);
    await gone.destroy();
  });
});
