// A gateway's run slots shared per tenant and per community, alone: a tenant's communities together
// get at most the tenant's share, one community at most its own; the slots are taken in turn, and
// the runs consumer prefetches more messages than there are slots.
import { expect } from 'chai';
import { TenantShares } from '@idv/platform/fairShare';
import { runPrefetch, SlotPool } from '../src/runs/slotPool.ts';

const owner = (tenantId: string, communityId: string) => ({ tenantId, communityId });

describe('docverify gateway: run shares per tenant and per community', () => {
  it("caps a tenant's communities together at the tenant's share", () => {
    const shares = new TenantShares({ perTenant: 4, perCommunity: 4 });
    // four communities of tenant b: before, each had its own 4, 16 in all
    const taken = ['b1', 'b2', 'b3', 'b4'].flatMap((c) =>
      [1, 2, 3, 4].map(() => shares.take(owner('b', c))),
    );
    expect(taken.filter(Boolean)).to.have.length(4);
    expect(shares.take(owner('a', 'a1'))).to.equal(true);
    shares.release(owner('b', 'b1'));
    expect(shares.running(owner('b', 'b1'))).to.deep.equal({ tenant: 3, community: 3 });
    expect(shares.take(owner('b', 'b4'))).to.equal(true);
  });

  it("caps one community at its share within its tenant's, taking nothing when refused", () => {
    const shares = new TenantShares({ perTenant: 6, perCommunity: 2 });
    expect([1, 2, 3].map(() => shares.take(owner('b', 'b1')))).to.deep.equal([true, true, false]);
    // the refusal by the community's share gave the tenant's slot back
    expect(shares.running(owner('b', 'b1'))).to.deep.equal({ tenant: 2, community: 2 });
    expect([1, 2, 3].map(() => shares.take(owner('b', 'b2')))).to.deep.equal([true, true, false]);
  });

  it('hands a freed slot to the run that waited longest', async () => {
    const pool = new SlotPool(1);
    await pool.acquire();
    const order: string[] = [];
    const first = pool.acquire().then(() => order.push('first'));
    const second = pool.acquire().then(() => order.push('second'));
    pool.release();
    await first;
    expect(order).to.deep.equal(['first']);
    expect(pool.inUse).to.equal(1);
    pool.release();
    await second;
    pool.release();
    expect(pool.inUse).to.equal(0);
  });

  it('prefetches more run messages than there are slots', () => {
    for (const slots of [1, 16, 256]) expect(runPrefetch(slots)).to.be.above(slots);
  });
});
