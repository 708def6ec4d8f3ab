// Target slots: a saturated target makes a delivery wait briefly for a slot when it answers
// fast, and refuses it when it is slow.
import { expect } from 'chai';
import { TargetBusy } from '../src/delivery/targetBusy.ts';
import { TargetSlots } from '../src/delivery/targetSlots.ts';

describe('webhook dispatcher: target slots', () => {
  it('lets a delivery wait for a fast target slot, and refuses one for a slow target', async () => {
    const slots = new TargetSlots(1);
    await slots.acquire('http://fast');
    slots.release('http://fast', 5); // a 5 ms answer: a waiter's slot comes soon
    await slots.acquire('http://fast');
    const waiter = slots.acquire('http://fast');
    slots.release('http://fast', 5);
    await waiter; // handed the freed slot

    await slots.acquire('http://slow');
    slots.release('http://slow', 5000); // 5 s answers: waiting would hold the room others need
    await slots.acquire('http://slow');
    let refused: unknown;
    await slots.acquire('http://slow').catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(TargetBusy);
  });

  it('sends a refused delivery back when a slot can be expected, within 100 ms .. 5 s', async () => {
    const pauseOf = async (latencyMs: number) => {
      const slots = new TargetSlots(1);
      await slots.acquire('http://target');
      slots.release('http://target', latencyMs);
      await slots.acquire('http://target'); // the one slot is taken again
      const refused = await slots.acquire('http://target').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).to.be.instanceOf(TargetBusy);
      return (refused as TargetBusy).pauseMs;
    };
    // a 2 s target frees its slot in about 2 s: no use looking again ten times a second
    expect(await pauseOf(2000)).to.be.within(1600, 2400);
    // a target slower than the cap is looked at again every 5 s (with jitter) at most
    expect(await pauseOf(60_000)).to.be.within(4000, 6000);
  });

  it('refuses a waiter once a fast target stops finishing its calls', async () => {
    let now = 0;
    const slots = new TargetSlots(1, () => now);
    await slots.acquire('http://hangs');
    slots.release('http://hangs', 5); // fast so far
    await slots.acquire('http://hangs'); // this call never finishes
    now += 2000; // no call has finished for longer than a waiter may wait
    const waiter = slots.acquire('http://hangs').then(
      () => 'granted',
      (err: unknown) => err,
    );
    slots.release('http://hangs', undefined); // a queued waiter would have been handed this slot
    expect(await waiter).to.be.instanceOf(TargetBusy);
  });
});
