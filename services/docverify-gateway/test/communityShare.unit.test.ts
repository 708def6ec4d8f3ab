// A gateway's fair share of run slots alone: at most its share per community, each community
// counted on its own, a released slot taken again; the default share is a quarter of the slots.
import { expect } from 'chai';
import { KeyedShare } from '@idv/platform/fairShare';
import { perCommunityShare } from '../src/runs/communityShare.ts';

describe('docverify gateway: fair share of run slots per community', () => {
  it('gives a community at most its share, whatever another community holds', () => {
    const share = new KeyedShare(2);
    expect([share.take('b'), share.take('b'), share.take('b')]).to.deep.equal([true, true, false]);
    expect(share.take('a')).to.equal(true);
    share.release('b');
    expect(share.running('b')).to.equal(1);
    expect(share.take('b')).to.equal(true);
    expect(share.take('b')).to.equal(false);
  });

  it('defaults to a quarter of the slots, at least one; a configured share wins', () => {
    expect(perCommunityShare(16, 0)).to.equal(4);
    expect(perCommunityShare(3, 0)).to.equal(1);
    expect(perCommunityShare(16, 6)).to.equal(6);
  });
});
