// QueueWaits alone: how replies and timeouts move the expected wait of a connector queue for one
// community, how an estimate decays without news so shedding lets probes through, and that one
// community's timeouts leave another's estimate (and so its calls) alone.
import { expect } from 'chai';
import { QueueWaits } from '../src/connectors/queueWaits.ts';

describe('docverify gateway: queue wait estimate', () => {
  let now = 0;
  const waits = () => new QueueWaits(() => now);
  const q = { queue: 'q', communityId: 'community-a' };

  it('knows nothing of a queue it never used', () => {
    now = 0;
    expect(waits().expectedTotal(q)).to.equal(0);
  });

  it('rises at once with longer waits and falls over several shorter ones', () => {
    now = 0;
    const w = waits();
    w.record(q, 1000, 200);
    expect(w.expectedWait(q)).to.equal(500);
    w.record(q, 0, 200);
    expect(w.expectedWait(q)).to.equal(400);
    expect(w.expectedTotal(q)).to.equal(400 + 150); // service: 0 -> 100 -> 150
  });

  it('takes a timeout as twice the budget, then halves it every 2 s without news', () => {
    now = 0;
    const w = waits();
    w.recordTimeout(q, 1500);
    expect(w.expectedWait(q)).to.equal(3000);
    now = 2000;
    expect(w.expectedWait(q)).to.equal(1500);
    now = 4000;
    expect(w.expectedWait(q)).to.equal(750);
  });

  it('keeps queues apart', () => {
    now = 0;
    const w = waits();
    w.recordTimeout({ queue: 'a', communityId: 'community-a' }, 1000);
    expect(w.expectedWait({ queue: 'b', communityId: 'community-a' })).to.equal(0);
  });

  it("keeps communities of one queue apart: B's timeouts and slow replies leave A's estimate at 0", () => {
    now = 0;
    const w = waits();
    const b = { queue: 'q', communityId: 'community-b' };
    w.recordTimeout(b, 1500);
    w.record(b, 5000, 5000);
    expect(w.expectedTotal(b)).to.be.above(3000);
    expect(w.expectedTotal(q)).to.equal(0);
  });
});
