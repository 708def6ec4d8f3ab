// Every connector type at concurrency 64 against a healthy provider: every job is answered with
// the same result as a lone one, nothing is blamed on the provider and no breaker opens. Calls
// share the worker's sockets and SDK clients; nothing one call does may break another in flight.
import { expect } from 'chai';
import type { ConnectorReply, ConnectorType } from '@idv/contracts';
import { cloud } from '@idv/testing/connectors/face_cloud';
import { faces } from '@idv/testing/connectors/fixtures';
import { testKits, type ConnectorTestKit } from '@idv/testing/connectors/kit';
import { startHarness, type Ask, type Harness } from './harness.ts';

const CONCURRENCY = 64;
const KITS = await testKits();

/** The kit's healthy request, or its first verified case (the adapter suite's). */
async function askOf(kit: ConnectorTestKit<ConnectorType>, sandbox: string): Promise<Ask> {
  const { type } = kit;
  if (kit.healthy) return { type, ...(await kit.healthy()) };
  const found = kit.cases.find((c) => c.status === 'verified');
  if (!found)
    throw new Error(`libs/testing/src/connectors/${type}.ts: no verified case, no healthy request`);
  return { type, kind: found.kind, config: found.config(sandbox), document: found.document };
}

function summary(replies: ConnectorReply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of replies) {
    const key = `${r.outcome}:${r.error?.code ?? r.result?.status ?? ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('connector workers at concurrency 64', function () {
  this.timeout(120_000);
  let harness: Harness;

  before(async () => {
    harness = await startHarness();
    // one tenant's 64 at once: its share of a worker's jobs is the whole prefetch here (the share
    // per tenant is tenantShares.test.ts'), so basic_ocr's jobs wait for a core in the queue
    await Promise.all(
      KITS.map((kit) =>
        harness.startWorker(kit.type, {
          WORKER_TENANT_SHARE: '10000',
          WORKER_COMMUNITY_SHARE: '10000',
        }),
      ),
    );
  });
  after(() => harness?.stop());

  for (const kit of KITS) {
    const { type } = kit;
    it(`${type}: ${CONCURRENCY} at once all answered as one alone is`, async () => {
      const ask = await askOf(kit, harness.sandbox.url);
      const alone = await harness.ask({ ...ask, timeoutMs: 30_000 });
      expect(alone.outcome, JSON.stringify(alone.error)).to.equal('completed');
      const replies = await Promise.all(
        Array.from({ length: CONCURRENCY }, () => harness.ask({ ...ask, timeoutMs: 60_000 })),
      );
      expect(summary(replies)).to.deep.equal({
        [`completed:${alone.result?.status}`]: CONCURRENCY,
      });
      const worker = harness.workers.find((w) => w.settings.CONNECTOR_TYPE === type);
      expect(worker?.breakers.state(`verifier-${type}`)).to.equal('closed');
    });
  }

  it('face_cloud: 64 at once through a provider answering in 300 ms', async () => {
    const replies = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) =>
        harness.ask({
          type: 'face_cloud',
          kind: 'face_compare',
          config: cloud,
          document: i % 2 ? faces('testy', 'testy') : faces('testy', 'fakey'),
          connectorUrl: `${harness.sandbox.url}/fault/latency=300`,
          verifierId: 'cloud-slow',
          timeoutMs: 30_000,
        }),
      ),
    );
    expect(summary(replies)).to.deep.equal({
      'completed:verified': CONCURRENCY / 2,
      'completed:not_verified': CONCURRENCY / 2,
    });
  });
});
