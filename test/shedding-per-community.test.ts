// Shedding is per community (issue 25, finding 6): the gateway's queue-wait estimate is kept per
// (connector queue, community), so community B's jobs timing out on a connector queue shed B's
// next calls at once but never A's calls on the same queue: A's job is sent, and answered.
import { expect } from 'chai';
import { startConnectorWorker } from '../services/connector-worker/src/start.ts';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

const DEADLINE_MS = 4000;

describe('POST /verify sheds per community', function () {
  this.timeout(60_000);
  let world: VerifyWorld;

  before(async () => {
    world = await startVerifyWorld({
      name: 'shed-community',
      platform: { VERIFY_DEADLINE_MS: String(DEADLINE_MS) },
    });
    // B: its own verifier and config on the same connector type (so the same queue) as A's
    const b = world.client('docverify', 'serviceElsewhere');
    const other = world.platform.otherCommunity;
    const verifier = await b.request('PUT', `/verifier/community/${other.id}`, {
      name: 'provider',
      tag: 'provider',
      type: 'face_compare_b',
      connectorUrl: world.sandbox.url,
      config: { apiKey: 'sandbox-key' },
    });
    const config = await b.request('PUT', `/verificationConfig/community/${other.id}`, {
      tenantId: other.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'provider' }],
    });
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
  });
  after(() => world?.stop());

  const verify = async (licence: 'service' | 'serviceElsewhere') => {
    const started = Date.now();
    const client = world.client('docverify', licence);
    const res = await client.encryptedRequest('POST', '/verify', world.verifyBody());
    return { res, ms: Date.now() - started };
  };

  it("sheds B's calls after B's timeouts, and still sends (and answers) A's", async () => {
    expect((await verify('service')).res.status).to.equal(200);
    expect((await verify('serviceElsewhere')).res.status).to.equal(200);
    await world.worker.stop(); // the queue stays; nobody consumes it

    const timedOut = await verify('serviceElsewhere');
    expect(timedOut.res.status).to.equal(503);
    expect(timedOut.ms, 'B waited for its deadline').to.be.at.least(DEADLINE_MS - 100);
    const shed = await verify('serviceElsewhere');
    expect(shed.res.status).to.equal(503);
    expect(shed.ms, 'B is shed without waiting').to.be.below(1000);

    // A's call right after B's timeout is sent, not shed: a worker coming back answers it
    const [a, worker] = await Promise.all([
      verify('service'),
      startConnectorWorker({
        AMQP_URL: world.platform.env.AMQP_URL!,
        MASTER_KEY: world.platform.env.MASTER_KEY!,
        LOG_LEVEL: 'silent',
        CONNECTOR_QUEUE_PREFIX: world.worker.settings.CONNECTOR_QUEUE_PREFIX,
        CONNECTOR_TYPE: world.worker.settings.CONNECTOR_TYPE,
      }),
    ]);
    try {
      expect(a.res.status, JSON.stringify(a.res.body)).to.equal(200);
    } finally {
      await worker.stop();
    }
  });
});
