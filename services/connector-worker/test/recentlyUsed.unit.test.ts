// The recency-bounded map behind the worker's SDK clients, access tokens and mTLS dispatchers.
import { expect } from 'chai';
import { RecentlyUsed } from '../src/provider/recentlyUsed.ts';

describe('connector worker: what it keeps per account', () => {
  it('evicts the least recently used past its capacity, and hands it over', () => {
    const evicted: string[] = [];
    const kept = new RecentlyUsed<string>(2, (value) => evicted.push(value));
    kept.set('a', 'A');
    kept.set('b', 'B');
    expect(kept.get('a')).to.equal('A'); // a is now the newest
    kept.set('c', 'C');
    expect(evicted).to.deep.equal(['B']);
    expect(kept.get('b')).to.equal(undefined);
    kept.set('a', 'A2'); // a replaced, nothing evicted
    expect(evicted).to.deep.equal(['B']);
    kept.delete('c');
    expect(kept.clear()).to.deep.equal(['A2']);
    expect(kept.get('a')).to.equal(undefined);
    expect(() => new RecentlyUsed(0)).to.throw(RangeError);
  });
});
