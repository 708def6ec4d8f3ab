// Target slots: a saturated target makes a delivery wait briefly for a slot when it answers
// fast, and refuses it when it is slow; a callback's slots are its webhook's, its community's share
// of the origin and the origin's, so a hanging webhook holds back no other webhook on its host, and
// its tenant's share across every origin, so a tenant hanging on many origins holds back no other.
import { expect } from 'chai';
import { CallbackSlots, type CallbackTarget } from '../src/delivery/callbackSlots.ts';
import { TargetBusy } from '../src/delivery/targetBusy.ts';
import { TargetSlots } from '../src/delivery/targetSlots.ts';

const SHARED_HOST = 'https://hooks.example.test';
const target = (webhookId: string, community: string): CallbackTarget => ({
  webhookId,
  tenant: community.split('/')[0]!,
  community,
  url: `${SHARED_HOST}/${webhookId}`,
  origin: SHARED_HOST,
});
const refusal = (attempt: Promise<void>) =>
  attempt.then(
    () => 'granted',
    (err: unknown) => (err instanceof TargetBusy ? err.reason : err),
  );

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

  describe('callback slots on a host several tenants share', () => {
    let now = 0;
    const slots = () =>
      new CallbackSlots({ webhook: 1, tenant: 4, communityPerOrigin: 2, origin: 3 }, () => now);
    /** the calls taken so far never finish: every later wait would be longer than allowed */
    const stall = () => (now += 5000);

    it("refuses a hanging webhook's next callback, and grants another webhook's on the same origin", async () => {
      const host = slots();
      await host.acquire(target('b-hangs', 'tenant-b/c'));
      stall();
      expect(await refusal(host.acquire(target('b-hangs', 'tenant-b/c')))).to.equal('webhook_busy');
      expect(await refusal(host.acquire(target('a-fine', 'tenant-a/c')))).to.equal('granted');
    });

    it('holds a community to its share of an origin, giving back the webhook slot it took', async () => {
      const host = slots();
      await host.acquire(target('b1', 'tenant-b/c'));
      await host.acquire(target('b2', 'tenant-b/c'));
      stall();
      expect(await refusal(host.acquire(target('b3', 'tenant-b/c')))).to.equal('community_busy');
      expect(await refusal(host.acquire(target('a1', 'tenant-a/c')))).to.equal('granted');
      host.release(target('b1', 'tenant-b/c'), 20);
      // b3's own slot was given back with the refusal: only the share decided
      expect(await refusal(host.acquire(target('b3', 'tenant-b/c')))).to.equal('granted');
    });

    it('bounds the callbacks in flight to one origin, all communities together', async () => {
      const host = slots();
      await host.acquire(target('a1', 'tenant-a/c'));
      await host.acquire(target('b1', 'tenant-b/c'));
      await host.acquire(target('b2', 'tenant-b/c'));
      stall();
      expect(await refusal(host.acquire(target('c1', 'tenant-c/c')))).to.equal('origin_busy');
      const elsewhere = { ...target('c1', 'tenant-c/c'), origin: 'https://other.example.test' };
      expect(await refusal(host.acquire(elsewhere))).to.equal('granted');
    });

    it("holds a tenant to its share across all of its communities' origins", async () => {
      const host = slots();
      // four origins of tenant b (a.evil.example, b.evil.example, ...), each within its own shares
      const evil = (i: number) => ({
        ...target(`b${i}`, `tenant-b/c${i}`),
        origin: `https://${'abcde'[i]}.evil.example.test`,
      });
      for (let i = 0; i < 4; i++) expect(await refusal(host.acquire(evil(i)))).to.equal('granted');
      stall();
      expect(await refusal(host.acquire(evil(4)))).to.equal('tenant_busy');
      expect(await refusal(host.acquire(target('a1', 'tenant-a/c')))).to.equal('granted');
    });
  });
});
