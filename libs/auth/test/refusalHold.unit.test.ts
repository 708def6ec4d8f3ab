// The hold of refusals: never past the refusal's Retry-After, at most so many held per subject and
// in all, the rest answered at once; what it holds is released when the hold ends.
import { expect } from 'chai';
import { RefusalHold } from '../src/rateLimit.ts';

/** which of `holds` ended first, by their index, in order */
async function endOrder(holds: Promise<void>[]): Promise<number[]> {
  const order: number[] = [];
  await Promise.all(holds.map((hold, i) => hold.then(() => order.push(i))));
  return order;
}

describe('refusal hold', () => {
  it('holds at most perSubject answers of one subject; the next is answered at once', async () => {
    const hold = new RefusalHold(200, 2, 100);
    const order = await endOrder([
      hold.hold('licence:a', 5),
      hold.hold('licence:a', 5),
      hold.hold('licence:a', 5),
      hold.hold('licence:b', 5),
    ]);
    // the third of a went at once, before the held ones
    expect(order[0]).to.equal(2);
    expect(hold.holding).to.equal(0);
  });

  it('holds at most total answers in all', async () => {
    const hold = new RefusalHold(200, 10, 2);
    const order = await endOrder([
      hold.hold('licence:a', 5),
      hold.hold('licence:b', 5),
      hold.hold('licence:c', 5),
    ]);
    expect(order[0]).to.equal(2);
  });

  it('holds a refusal its hold, or its Retry-After when that is sooner', async () => {
    const started = Date.now();
    await Promise.all([
      new RefusalHold(400).hold('licence:a', 5),
      new RefusalHold(60_000).hold('licence:b', 1),
    ]);
    const took = Date.now() - started;
    // the longer of the two: Retry-After's 1 s, not the hold's minute
    expect(took).to.be.at.least(950).and.below(5000);
  });

  it('never holds past Retry-After, nor at all with 0 ms', async () => {
    const long = new RefusalHold(60_000);
    const short = new RefusalHold(0);
    const started = Date.now();
    await Promise.all([long.hold('images:c', 0), short.hold('images:c', 5)]);
    expect(Date.now() - started).to.be.below(1000);
    expect(long.holding).to.equal(0);
  });
});
