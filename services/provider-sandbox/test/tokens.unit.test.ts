// The sandbox's bearer tokens last what their answer says, and expired ones are forgotten.
import { expect } from 'chai';
import { TokenBook } from '../src/routes/tokens.ts';

describe('provider sandbox: bearer tokens', () => {
  it('accepts a token until its lifetime ends, then refuses it', async () => {
    const book = new TokenBook('t', 0.05);
    const token = book.issue();
    expect(book.accepts(`Bearer ${token}`)).to.equal(true);
    expect(book.accepts(token)).to.equal(false); // not a bearer header
    expect(book.accepts('Bearer someone-else')).to.equal(false);
    expect(book.accepts(undefined)).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(book.accepts(`Bearer ${token}`)).to.equal(false);
  });

  it('forgets expired tokens as it issues new ones', async () => {
    const book = new TokenBook('t', 0.02);
    for (let i = 0; i < 100; i++) book.issue();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const fresh = book.issue();
    expect(book.accepts(`Bearer ${fresh}`)).to.equal(true);
    expect((book as unknown as { until: Map<string, number> }).until.size).to.equal(1);
  });
});
