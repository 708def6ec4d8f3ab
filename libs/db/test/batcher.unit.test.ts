// Group commit: calls made together share one statement, each gets its own answer, a bad row
// fails only its own call, and an outage fails the whole batch at once.
import { expect } from 'chai';
import { Batcher } from '../src/batcher.ts';

const sqlError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

describe('libs/db: Batcher (group commit)', () => {
  it('runs what is submitted in one turn of the event loop as one statement', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number>(async (items) => {
      runs.push(items);
    });
    await Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)));
    expect(runs).to.deep.equal([[1, 2, 3, 4]]);
  });

  it('with sendAtOnce, sends a call at once when no statement runs, the rest after it', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number>(
      async (items) => {
        runs.push(items);
      },
      { sendAtOnce: true },
    );
    await Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)));
    expect(runs).to.deep.equal([[1], [2, 3, 4]]);
  });

  it('with intervalMs, sends what came over each interval as one statement, never sooner', async () => {
    const runs: { items: number[]; at: number }[] = [];
    const started = Date.now();
    const batcher = new Batcher<number>(
      async (items) => {
        runs.push({ items, at: Date.now() - started });
      },
      { intervalMs: 60 },
    );
    const calls = [batcher.submit(1)];
    await new Promise((r) => setTimeout(r, 20));
    calls.push(batcher.submit(2));
    await Promise.all(calls);
    calls.push(batcher.submit(3), batcher.submit(4));
    await Promise.all(calls);
    expect(runs.map((r) => r.items)).to.deep.equal([
      [1, 2],
      [3, 4],
    ]);
    expect(runs[0]!.at).to.be.at.least(55);
    expect(runs[1]!.at - runs[0]!.at).to.be.at.least(55);
  });

  it('drain sends what waits for its interval at once and resolves when it is answered', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number>(
      async (items) => {
        runs.push(items);
      },
      { intervalMs: 60_000 },
    );
    const calls = [1, 2].map((n) => batcher.submit(n));
    await batcher.drain();
    expect(runs).to.deep.equal([[1, 2]]);
    await Promise.all(calls);
    await batcher.drain();
    expect(runs).to.have.length(1);
  });

  it('answers each call with its own output, in order', async () => {
    const batcher = new Batcher<number, number>(async (items) => items.map((n) => n * 10));
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).to.deep.equal([10, 20, 30]);
  });

  it('gathers the calls made while a statement runs into the next one, at most maxBatch each', async () => {
    const runs: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new Batcher<number>(
      async (items) => {
        runs.push(items);
        if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { maxBatch: 2 },
    );
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve)); // the first statement is running
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).to.deep.equal([[1]]); // nothing else runs beside it
    release();
    await Promise.all([first, ...later]);
    expect(runs).to.deep.equal([[1], [2, 3], [4]]);
  });

  it('retries call by call after a row-specific error, so only the bad call fails', async () => {
    const batcher = new Batcher<number>(async (items) => {
      if (items.includes(13)) throw sqlError('23503');
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => batcher.submit(n)));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('fails every call of a statement at once when the database is out (no per-call retries)', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number>(async (items) => {
      runs.push(items);
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results.every((r) => r.status === 'rejected')).to.equal(true);
    expect(runs).to.deep.equal([[1, 2, 3]]);
  });
});
