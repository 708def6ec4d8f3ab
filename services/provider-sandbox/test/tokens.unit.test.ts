// The sandbox's bearer tokens last what their answer says, and expired ones are forgotten.
import { expect } from 'chai';
import { TestClock } from '@idv/testing/testClock';
import { TokenBook } from '../src/routes/tokens.ts';

describe('provider sandbox: bearer tokens', () => {
  it('accepts a token until its lifetime ends, then refuses it', () => {
    const clock = new TestClock();
    const book = new TokenBook('t', 60, clock.nowMs);
    const token = book.issue();
    expect(book.accepts(`Bearer ${token}`)).to.equal(true);
    expect(book.accepts(token)).to.equal(false); // not a bearer header
    expect(book.accepts('Bearer someone-else')).to.equal(false);
    expect(book.accepts(undefined)).to.equal(false);
    clock.advance(59_000);
    expect(book.accepts(`Bearer ${token}`)).to.equal(true);
    clock.advance(1_000);
    expect(book.accepts(`Bearer ${token}`)).to.equal(false);
  });

  it('forgets expired tokens as it issues new ones', () => {
    const clock = new TestClock();
    const book = new TokenBook('t', 60, clock.nowMs);
    for (let i = 0; i < 100; i++) book.issue();
    clock.advance(60_000);
    const fresh = book.issue();
    expect(book.accepts(`Bearer ${fresh}`)).to.equal(true);
    expect((book as unknown as { until: Map<string, number> }).until.size).to.equal(1);
  });
});
