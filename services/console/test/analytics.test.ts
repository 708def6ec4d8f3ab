// The analytics' per-connector latency and errors: p50/p95 estimated from the gateway's histogram
// of a minute's calls, and over HTTP the rows of docverify.connector_minutes summed per verifier
// within the operator's communities (another community's verifier never shown).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { quantileOf } from '../src/store/connectorLatency.ts';
import { ConsoleWorld } from '@idv/testing/consoleWorld';

/** A minute's row as the gateway writes it; `buckets` the seven histogram columns. */
const minute = (
  communityId: string,
  verifierTag: string,
  minutesAgo: number,
  buckets: number[],
  errors = 0,
  timeouts = 0,
) => ({
  community_id: communityId,
  minute: new Date(Date.now() - minutesAgo * 60_000 - (Date.now() % 60_000)),
  verifier_tag: verifierTag,
  kind: 'face_compare',
  connector_type: 'face_compare_b',
  calls: buckets.reduce((a, b) => a + b, 0),
  errors,
  timeouts,
  refusals: 0,
  busy: 0,
  total_ms: buckets.reduce((a, b) => a + b, 0) * 200,
  max_ms: 4000,
  le_100_ms: buckets[0],
  le_250_ms: buckets[1],
  le_500_ms: buckets[2],
  le_1000_ms: buckets[3],
  le_2500_ms: buckets[4],
  le_5000_ms: buckets[5],
  over_5000_ms: buckets[6],
});

describe('console analytics: connector latency and errors', function () {
  this.timeout(60_000);

  it('estimates quantiles linearly within the bucket, never above the max seen', () => {
    expect(quantileOf([0, 0, 0, 0, 0, 0, 0], 0, 0.5)).to.equal(null);
    // 10 calls up to 100 ms, 10 from 100 to 250: the median at the first bucket's top
    expect(quantileOf([10, 10, 0, 0, 0, 0, 0], 240, 0.5)).to.equal(100);
    // p95 = rank 19 of 20: 9 of the second bucket's 10, 100 + 0.9 * (240 - 100), its max 240
    expect(quantileOf([10, 10, 0, 0, 0, 0, 0], 240, 0.95)).to.be.closeTo(226, 0.001);
    // the last bucket reaches the max seen
    expect(quantileOf([0, 0, 0, 0, 0, 0, 4], 9000, 0.95)).to.be.closeTo(5000 + 0.95 * 4000, 0.001);
    expect(quantileOf([1, 0, 0, 0, 0, 0, 0], 30, 0.95)).to.equal(28.5);
  });

  describe('GET /api/analytics', () => {
    let w: ConsoleWorld;
    const elsewhere = randomUUID();
    before(async () => {
      w = await ConsoleWorld.start();
      const here = w.platform.community.id;
      await w.db('docverify.connector_minutes').insert([
        minute(here, 'faces', 5, [80, 15, 5, 0, 0, 0, 0], 2, 1),
        minute(here, 'faces', 65, [0, 0, 0, 0, 0, 0, 0]),
        minute(here, 'faces', 125, [0, 0, 0, 0, 0, 0, 0]),
        minute(here, 'slow', 5, [0, 0, 0, 5, 5, 0, 0]),
        // past the window: not counted
        minute(here, 'faces', 40 * 24 * 60, [0, 0, 0, 0, 0, 0, 100], 100),
        minute(elsewhere, 'hidden', 5, [1, 0, 0, 0, 0, 0, 0]),
      ]);
    });
    after(async () => w?.stop());

    type Calls = {
      verifier: string;
      calls: number;
      errors: number;
      timeouts: number;
      errorRate: number;
      p50Ms: number;
      p95Ms: number;
      averageMs: number;
      maxMs: number;
      communityId: string;
    }[];
    const callsSeenBy = async (communities: string[]) => {
      const browser = await w.signIn(await w.operator(['viewer'], communities));
      const answer = await browser.request(`${w.url}/api/analytics?days=30`);
      expect(answer.status, answer.text).to.equal(200);
      return (JSON.parse(answer.text) as { connectors: { calls: Calls } }).connectors.calls;
    };

    it("sums an operator's communities' minutes per verifier, with error rate and estimated percentiles", async () => {
      const calls = await callsSeenBy([w.platform.community.id]);
      expect(calls.map((c) => c.verifier)).to.deep.equal(['faces', 'slow']);
      const faces = calls[0]!;
      expect(faces).to.include({ calls: 100, errors: 2, timeouts: 1, averageMs: 200, maxMs: 4000 });
      expect(faces.errorRate).to.be.closeTo(0.03, 1e-9);
      expect(faces.p50Ms).to.be.closeTo(62.5, 1e-9);
      // rank 95: the 15th of the second bucket's 15 calls
      expect(faces.p95Ms).to.equal(250);
      expect(calls[1]!.p95Ms).to.be.closeTo(1000 + 0.9 * 1500, 1e-9);
    });

    it('shows every community to an operator of all of them, another community to no one else', async () => {
      const all = await callsSeenBy([]);
      expect(all.map((c) => c.verifier)).to.include('hidden');
      const mine = await callsSeenBy([w.platform.community.id]);
      expect(mine.map((c) => c.communityId)).to.not.include(elsewhere);
    });
  });
});
