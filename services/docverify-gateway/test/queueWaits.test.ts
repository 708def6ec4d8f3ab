// QueueWaits alone: how replies and timeouts move the expected wait of a connector queue, and
// how an estimate decays without news so shedding lets probes through.
import { expect } from 'chai';
import { QueueWaits } from '../src/verification/queueWaits.ts';

describe('docverify gateway: queue wait estimate', () => {
  let now = 0;
  const waits = () => new QueueWaits(() => now);

  it('knows nothing of a queue it never used', () => {
    now = 0;
    expect(waits().expectedTotal('q')).to.equal(0);
  });

  it('rises at once with longer waits and falls over several shorter ones', () => {
    now = 0;
    const q = waits();
    q.record('q', 1000, 200);
    expect(q.expectedWait('q')).to.equal(500);
    q.record('q', 0, 200);
    expect(q.expectedWait('q')).to.equal(400);
    expect(q.expectedTotal('q')).to.equal(400 + 150); // service: 0 -> 100 -> 150
  });

  it('takes a timeout as twice the budget, then halves it every 2 s without news', () => {
    now = 0;
    const q = waits();
    q.recordTimeout('q', 1500);
    expect(q.expectedWait('q')).to.equal(3000);
    now = 2000;
    expect(q.expectedWait('q')).to.equal(1500);
    now = 4000;
    expect(q.expectedWait('q')).to.equal(750);
  });

  it('keeps queues apart', () => {
    now = 0;
    const q = waits();
    q.recordTimeout('a', 1000);
    expect(q.expectedWait('b')).to.equal(0);
  });
});
