// VerifierAdmission and LatencyWindow alone: caps, FIFO order, refusal at once when the deadline
// cannot be met, the rate's spacing, and what closing does to waiting jobs.
import { expect } from 'chai';
import { Busy } from '../src/outcomes.ts';
import { VerifierAdmission } from '../src/provider/admission.ts';
import { LatencyWindow } from '../src/provider/latency.ts';

const within = (ms: number) => ({ deadline: Date.now() + ms, typicalMs: 100, shortestMs: 50 });

describe('connector worker: verifier admission', () => {
  it('lets calls through at once without limits', async () => {
    const admission = new VerifierAdmission();
    const releases = await Promise.all(
      Array.from({ length: 100 }, () => admission.acquire(within(1000))),
    );
    expect(releases).to.have.length(100);
    expect(admission.waiting).to.equal(0);
  });

  it('holds maxConcurrent, starts waiters in order as slots free', async () => {
    const admission = new VerifierAdmission({ maxConcurrent: 2 });
    const [a, b] = await Promise.all([
      admission.acquire(within(1000)),
      admission.acquire(within(1000)),
    ]);
    const order: number[] = [];
    const third = admission.acquire(within(1000)).then((r) => (order.push(3), r));
    const fourth = admission.acquire(within(1000)).then((r) => (order.push(4), r));
    expect(admission.waiting).to.equal(2);
    a();
    a(); // twice is harmless
    await third;
    expect(order).to.deep.equal([3]);
    b();
    await fourth;
    expect(order).to.deep.equal([3, 4]);
  });

  it('refuses at once, with a retry hint, a job the queue ahead would keep past its deadline', async () => {
    const admission = new VerifierAdmission({ maxConcurrent: 1 });
    await admission.acquire(within(1000));
    const asked = admission
      .acquire({ deadline: Date.now() + 120, typicalMs: 100, shortestMs: 50 })
      .catch((e: unknown) => e);
    // at once: settled before any timer could have fired, not when the deadline came
    const refused = await Promise.race([
      asked,
      new Promise((resolve) => setImmediate(() => resolve('still waiting'))),
    ]);
    expect(refused).to.be.instanceOf(Busy).with.property('code', 'verifier_saturated');
    expect((refused as Busy).retryAfterMs).to.equal(100);
  });

  it('refuses a waiter whose slot did not come before its deadline', async () => {
    const admission = new VerifierAdmission({ maxConcurrent: 1 });
    await admission.acquire(within(1000));
    const waiting = admission.acquire({ deadline: Date.now() + 150, typicalMs: 0, shortestMs: 50 });
    const refused = await waiting.catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Busy).with.property('code', 'verifier_saturated');
    expect(admission.waiting).to.equal(0);
  });

  it('spaces starts at maxPerSecond', async () => {
    const admission = new VerifierAdmission({ maxPerSecond: 20 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => admission.acquire(within(2000))));
    // 20 a second: the fifth starts four spacings (200 ms, less a timer's slack) after the first
    expect(Date.now() - started).to.be.at.least(180);
  });

  it('applies new limits from the next job and refuses waiters when closed', async () => {
    const admission = new VerifierAdmission({ maxConcurrent: 1 });
    await admission.acquire(within(1000));
    const waiting = admission.acquire(within(1000));
    admission.update({ maxConcurrent: 2 });
    await waiting;
    const stopped = admission.acquire(within(1000)).catch((e: unknown) => e);
    admission.close();
    expect(await stopped)
      .to.be.instanceOf(Busy)
      .with.property('code', 'stopping');
  });

  it('estimates call time from recent calls', () => {
    const latency = new LatencyWindow(10);
    expect(latency.shortest()).to.equal(0);
    for (const ms of [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]) latency.record(ms);
    expect(latency.shortest()).to.equal(300);
    expect(latency.typical()).to.equal(600);
    for (let i = 0; i < 10; i += 1) latency.record(50); // only the last ten count
    expect(latency.typical()).to.equal(50);
  });
});
