// The session state table: final states are final, every other state can end, and the wire
// status the vendor helper polls reads INPROGRESS until then.
import { expect } from 'chai';
import {
  FINAL_SESSION_STATES,
  isFinalSessionState,
  SESSION_STATES,
  SESSION_TRANSITIONS,
  wireStatusOf,
} from '../index.ts';

describe('contracts: session states', () => {
  it('never leaves a final state', () => {
    for (const t of SESSION_TRANSITIONS)
      for (const from of t.from)
        expect(FINAL_SESSION_STATES, `${from} -> ${t.to}`).not.to.include(from);
  });

  it('lets every state in progress reach a final state', () => {
    for (const state of SESSION_STATES.filter((s) => !isFinalSessionState(s))) {
      const seen = new Set<(typeof SESSION_STATES)[number]>([state]);
      for (let grew = true; grew;) {
        grew = false;
        for (const t of SESSION_TRANSITIONS)
          if (t.from.some((f) => seen.has(f)) && !seen.has(t.to)) {
            seen.add(t.to);
            grew = true;
          }
      }
      expect(
        [...seen].some((s) => isFinalSessionState(s)),
        state,
      ).to.equal(true);
    }
  });

  it('names each timer by its well-known constant and reads INPROGRESS until final', () => {
    const timers = SESSION_TRANSITIONS.flatMap((t) => (t.timer ? [[t.to, t.timer]] : []));
    expect(timers).to.deep.equal([
      ['expired', 'expireSessionInMin'],
      ['abandoned', 'abandonSessionInMin'],
    ]);
    expect(wireStatusOf('processing')).to.equal('INPROGRESS');
    expect(wireStatusOf('cancelled')).to.equal('CANCELLED');
  });
});
