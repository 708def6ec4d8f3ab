// Deadlines and verifier limits in a real worker: a job is never started when it cannot end in
// time, a verifier's caps hold at the provider, and only the provider's own failures open its
// breaker: queueing and deadlines of ours never count against a healthy provider.
import { expect } from 'chai';
import type { ConnectorReply } from '@idv/contracts';
import type { RunningWorker } from '../src/start.ts';
import { startHarness, type Ask, type Harness } from './harness.ts';
import { testy } from '@idv/testing/connectors/fixtures';

describe('connector worker: deadlines and verifier limits', function () {
  this.timeout(30_000);
  let harness: Harness;
  let worker: RunningWorker;
  const ask = (scope: string, verifierId: string, extra: Partial<Ask> = {}) =>
    harness.ask({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: testy,
      connectorUrl: `${harness.sandbox.url}/s/${scope}`,
      verifierId,
      ...extra,
    });
  const codes = (replies: ConnectorReply[]) =>
    replies.map((r) => (r.outcome === 'completed' ? 'completed' : `${r.outcome}:${r.error?.code}`));

  before(async () => {
    harness = await startHarness({
      BREAKER_VOLUME_THRESHOLD: '3',
      BREAKER_RESET_MS: '60000',
      PROVIDER_HTTP_TIMEOUT_MS: '1000',
      BREAKER_TIMEOUT_MS: '1500',
    });
    worker = await harness.startWorker('identity_data');
  });
  after(() => harness?.stop());

  it('answers a job that comes after its deadline busy, without calling the provider', async () => {
    const { body } = harness.job({
      type: 'identity_data',
      kind: 'ssn_verify',
      config: { apiKey: 'sandbox-key' },
      document: testy,
      connectorUrl: `${harness.sandbox.url}/s/late`,
    });
    const reply = (await harness.broker.request(
      worker.queue,
      { ...body, deadline: Date.now() - 1 },
      { timeoutMs: 5000 },
    )) as ConnectorReply;
    expect(reply).to.deep.include({ outcome: 'busy' });
    expect(reply.error?.code).to.equal('deadline_passed');
    expect(harness.sandbox.faults.callsOf('late')).to.equal(0);
  });

  it('does not start a call that recent calls say cannot end before the deadline', async () => {
    harness.sandbox.faults.set('slow', { latencyMs: 700 });
    expect((await ask('slow', 'v-slow', { timeoutMs: 5000 })).outcome).to.equal('completed');
    const calls = harness.sandbox.faults.callsOf('slow');
    const reply = await ask('slow', 'v-slow', { timeoutMs: 600 });
    expect(codes([reply])).to.deep.equal(['busy:deadline_too_close']);
    expect(harness.sandbox.faults.callsOf('slow')).to.equal(calls);
  });

  it("holds a verifier's maxConcurrent at the provider and refuses at once what cannot start in time", async () => {
    harness.sandbox.faults.set('capped', { latencyMs: 200 });
    const limits = { maxConcurrent: 2 };
    await ask('capped', 'v-capped', { limits, timeoutMs: 5000 }); // learns the latency
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => ask('capped', 'v-capped', { limits, timeoutMs: 1000 })),
    );
    const seen = codes(replies);
    expect(harness.sandbox.faults.peakOf('capped')).to.equal(2);
    expect(seen.filter((c) => c === 'completed').length).to.be.at.least(4);
    expect(seen.filter((c) => c === 'busy:verifier_saturated').length).to.be.at.least(3);
    expect(
      seen.every((c) => /^(completed|busy:)/.test(c)),
      seen.join(),
    ).to.equal(true);
    const refusedAtOnce = replies.filter((r) => r.outcome === 'busy' && r.latencyMs < 100);
    expect(refusedAtOnce.length, 'refused without waiting for the deadline').to.be.at.least(3);
    expect(refusedAtOnce.every((r) => (r.retryAfterMs ?? 0) > 0)).to.equal(true);
    expect(Date.now() - started).to.be.below(1000);
    expect(worker.breakers.state('v-capped')).to.equal('closed');
  });

  it("spaces calls at a verifier's maxPerSecond", async () => {
    const limits = { maxPerSecond: 10 };
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => ask('paced', 'v-paced', { limits, timeoutMs: 5000 })),
    );
    expect(codes(replies)).to.deep.equal(Array(5).fill('completed'));
    expect(Date.now() - started).to.be.at.least(380);
  });

  it('counts a call cut by its deadline as busy, never against the provider; its own timeout does count', async () => {
    harness.sandbox.faults.set('crawl', { latencyMs: 900 });
    const cut = await Promise.all(
      Array.from({ length: 6 }, () => ask('crawl', 'v-crawl', { timeoutMs: 500 })),
    );
    expect(codes(cut)).to.deep.equal(Array(6).fill('busy:deadline_cut'));
    expect(worker.breakers.state('v-crawl')).to.equal('closed');

    harness.sandbox.faults.set('hung', { hang: true });
    for (let i = 0; i < 3; i += 1) {
      const own = await ask('hung', 'v-hung', { timeoutMs: 5000 });
      expect(codes([own])).to.deep.equal(['provider_unavailable:provider_timeout']);
    }
    expect(worker.breakers.state('v-hung')).to.equal('open');
    const calls = harness.sandbox.faults.callsOf('hung');
    expect(codes([await ask('hung', 'v-hung', { timeoutMs: 5000 })])).to.deep.equal([
      'provider_unavailable:breaker_open',
    ]);
    expect(harness.sandbox.faults.callsOf('hung')).to.equal(calls);
  });
});
