// A worker's jobs shared per tenant (issue 25: connector workers are a pool every tenant shares).
// Tenant B's jobs on a provider that takes its time hold at most B's share of the worker: past it,
// B's next job, from any of B's communities, is busy at once (the gateway fails over or answers 503
// with Retry-After), and tenant A's job is taken and answered while B's are still running.
import { availableParallelism } from 'node:os';
import { expect } from 'chai';
import { loadWorkerConfig, prefetchOf, sharesOf } from '../src/config.ts';
import { cloud } from '@idv/testing/connectors/face_cloud';
import { faces } from '@idv/testing/connectors/fixtures';
import { eventually } from '@idv/testing/eventually';
import { startHarness, type Ask, type Harness } from './harness.ts';

describe('connector worker: a share per tenant and per community', function () {
  this.timeout(120_000);
  let harness: Harness;

  before(async () => {
    harness = await startHarness();
    // four jobs at once, two of them one tenant's, three one community's
    await harness.startWorker('face_cloud', {
      WORKER_PREFETCH: '4',
      WORKER_TENANT_SHARE: '2',
      WORKER_COMMUNITY_SHARE: '3',
    });
  });
  after(() => harness?.stop());

  const slow = (tenantId: string, communityId: string): Ask => ({
    type: 'face_cloud',
    kind: 'face_compare',
    config: cloud,
    document: faces('testy', 'testy'),
    connectorUrl: `${harness.sandbox.url}/fault/latency=3000`,
    verifierId: `slow-${tenantId}`,
    tenantId,
    communityId,
    timeoutMs: 30_000,
  });

  it("B's jobs past its share are busy at once, from any of its communities; A's job runs beside them", async () => {
    const running = [harness.ask(slow('B', 'b1')), harness.ask(slow('B', 'b2'))];
    await eventually('both jobs taken, waiting on the provider', async () => {
      const gauge = await harness.workers[0]!.registry.getSingleMetric(
        'connector_jobs_in_flight',
      )?.get();
      return gauge?.values.reduce((sum, v) => sum + v.value, 0) === 2;
    });
    const over = await Promise.all([harness.ask(slow('B', 'b1')), harness.ask(slow('B', 'b3'))]);
    for (const reply of over) {
      expect(reply.outcome).to.equal('busy');
      expect(reply.error?.code).to.equal('tenant_busy');
      expect(reply.retryAfterMs).to.be.above(0);
    }
    const other = await harness.ask(slow('A', 'a1'));
    expect(other.outcome, JSON.stringify(other.error)).to.equal('completed');
    for (const reply of await Promise.all(running)) expect(reply.outcome).to.equal('completed');
    // the share is given back: B's next job runs
    expect((await harness.ask(slow('B', 'b1'))).outcome).to.equal('completed');
  });

  it('defaults: four fifths of the prefetch of a type that waits on providers, half the cores of basic_ocr', () => {
    const of = (type: string, extra: Record<string, string> = {}) =>
      loadWorkerConfig({ CONNECTOR_TYPE: type, LOG_LEVEL: 'silent', ...extra });
    expect(prefetchOf(of('face_cloud'))).to.equal(640);
    expect(sharesOf(of('face_cloud'))).to.deep.equal({ perTenant: 512, perCommunity: 512 });
    const cores = availableParallelism();
    expect(prefetchOf(of('basic_ocr'))).to.equal(2 * cores);
    const half = Math.max(1, Math.floor(cores / 2));
    expect(sharesOf(of('basic_ocr'))).to.deep.equal({ perTenant: half, perCommunity: half });
    expect(sharesOf(of('basic_ocr', { WORKER_TENANT_SHARE: '3' }))).to.deep.include({
      perTenant: Math.min(3, 2 * cores),
    });
  });
});
