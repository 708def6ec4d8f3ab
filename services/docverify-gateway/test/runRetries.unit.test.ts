// The retry rules of a verification run alone: backoff doubling from its first wait to its cap, a
// connectors' hint taken when longer, retries used up, and which wait queue a wait is spent in.
import { expect } from 'chai';
import { backoffMs, retriesUsedUp, waitTier } from '../src/runs/runRetries.ts';

describe('docverify gateway: retries of a verification run', () => {
  const policy = { retries: 3, firstMs: 1000, maxMs: 8000 };

  it('doubles the wait from the first try on, up to its cap', () => {
    expect([1, 2, 3, 4, 5, 40].map((starts) => backoffMs(policy, starts))).to.deep.equal([
      1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it("waits the connectors' Retry-After when longer, never past the cap", () => {
    expect(backoffMs(policy, 1, 3000)).to.equal(3000);
    expect(backoffMs(policy, 3, 3000)).to.equal(4000);
    expect(backoffMs(policy, 1, 60_000)).to.equal(8000);
  });

  it('allows the first try and `retries` more', () => {
    expect([1, 2, 3, 4].map((starts) => retriesUsedUp(policy, starts))).to.deep.equal([
      false,
      false,
      false,
      true,
    ]);
    expect(retriesUsedUp({ ...policy, retries: 0 }, 1)).to.equal(true);
  });

  it('spends a wait in the longest tier that fits, and goes on with less than the shortest left', () => {
    const tiers = [1000, 5000, 30_000];
    expect(waitTier(tiers, 45_000)).to.equal(30_000);
    expect(waitTier(tiers, 30_000)).to.equal(30_000);
    expect(waitTier(tiers, 12_000)).to.equal(5000);
    expect(waitTier(tiers, 4999)).to.equal(1000);
    expect(waitTier(tiers, 999)).to.equal(undefined);
    expect(waitTier(tiers, -5)).to.equal(undefined);
  });
});
