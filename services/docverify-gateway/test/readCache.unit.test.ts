// The /verify read cache: one load for callers asking at once, cleared by writes, never keeping a
// failed or refused load, frozen values.
import { expect } from 'chai';
import { deepFreeze, ReadCache } from '../src/shared/readCache.ts';

function counter(value: () => string[] = () => ['row']) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count += 1;
    return value();
  };
  return { calls, load };
}

describe('docverify gateway: read cache', () => {
  it('shares one load among callers and serves later ones from memory', async () => {
    const cache = new ReadCache<string[]>(60_000);
    const { calls, load } = counter();
    const answers = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    await cache.get('k', load);
    expect(calls.count).to.equal(1);
    expect(answers[0]).to.equal(answers[1]);
  });

  it('reads again after clear(), also when the clear came while a read was running', async () => {
    const cache = new ReadCache<string[]>(60_000);
    let version = 'old';
    const { calls, load } = counter(() => [version]);
    const running = cache.get('k', load);
    version = 'new';
    cache.clear();
    // the caller that asked before the write gets what was read then; later callers read again
    expect(await running).to.deep.equal(['old']);
    expect(await cache.get('k', load)).to.deep.equal(['new']);
    expect(calls.count).to.equal(2);
  });

  it('keeps neither a failed load nor one that keep() refuses', async () => {
    const cache = new ReadCache<string[]>(60_000);
    let fail = true;
    const load = async () => {
      if (fail) throw new Error('database away');
      return [];
    };
    await cache.get('k', load).then(
      () => expect.fail('should reject'),
      (err: Error) => expect(err.message).to.equal('database away'),
    );
    fail = false;
    const { calls, load: empty } = counter(() => []);
    await cache.get('k', empty, (rows) => rows.length > 0);
    await cache.get('k', empty, (rows) => rows.length > 0);
    expect(calls.count).to.equal(2);
  });

  it('reads every time with a ttl of 0, and again once the ttl has passed', async () => {
    const off = new ReadCache<string[]>(0);
    const first = counter();
    await off.get('k', first.load);
    await off.get('k', first.load);
    expect(first.calls.count).to.equal(2);
    let now = 1000;
    const short = new ReadCache<string[]>(50, 10, () => now);
    const second = counter();
    await short.get('k', second.load);
    now += 49;
    await short.get('k', second.load);
    expect(second.calls.count).to.equal(1);
    now += 1;
    await short.get('k', second.load);
    expect(second.calls.count).to.equal(2);
  });

  it('lets expired values go at the next read of any key, so no secret lingers', async () => {
    let now = 1000;
    const cache = new ReadCache<string[]>(50, 10, () => now);
    await cache.get('a', counter().load);
    now += 10;
    await cache.get('b', counter().load);
    expect(cache.size).to.equal(2);
    now += 45;
    await cache.get('c', counter().load);
    expect(cache.size).to.equal(2);
    now += 100;
    await cache.get('c', counter().load);
    expect(cache.size).to.equal(1);
  });

  it('freezes values deeply, so no request can change what another one reads', () => {
    const record = deepFreeze({ arrays: { face_compare: [{ verifier: 'faces' }] } });
    expect(Object.isFrozen(record.arrays.face_compare[0])).to.equal(true);
    expect(() => {
      (record.arrays.face_compare as unknown[]).push({});
    }).to.throw(TypeError);
  });
});
