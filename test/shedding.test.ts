// Shedding through POST /verify: when a connector type's jobs wait in the queue past the deadline
// (here: its every worker is gone), the gateway answers 503 with Retry-After at once instead of
// holding each caller until its deadline, and lets probes through so it recovers by itself.
import { expect } from 'chai';
import { startConnectorWorker } from '../services/connector-worker/src/start.ts';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import { eventually } from '@idv/testing/eventually';

const DEADLINE_MS = 1500;

describe('POST /verify sheds a backed-up connector queue', function () {
  this.timeout(60_000);
  let world: VerifyWorld;

  before(async () => {
    world = await startVerifyWorld({
      name: 'shed',
      platform: { VERIFY_DEADLINE_MS: String(DEADLINE_MS) },
    });
  });
  after(() => world?.stop());

  const verify = async () => {
    const started = Date.now();
    const client = world.client('docverify', 'service');
    const res = await client.encryptedRequest('POST', '/verify', world.verifyBody());
    return { res, ms: Date.now() - started };
  };

  it('answers at once with 503 and Retry-After once the queue is known to outlast the deadline', async () => {
    expect((await verify()).res.status).to.equal(200);
    await world.worker.stop(); // the queue stays; nobody consumes it

    const first = await verify();
    expect(first.res.status).to.equal(503);
    expect(first.ms).to.be.at.least(DEADLINE_MS - 100);

    const second = await verify();
    expect(second.res.status).to.equal(503);
    expect(second.ms, 'shed without waiting for the deadline').to.be.below(300);
    expect(Number(second.res.headers.get('retry-after'))).to.be.at.least(1);
    expect(second.res.body).to.include({ statusCode: 503, error: 'Service Unavailable' });

    const metrics = await (await fetch(`${world.platform.services.docverify.url}/metrics`)).text();
    expect(metrics).to.match(/docverify_shed_total\{[^}]*reason="backlog"[^}]*\} [1-9]/);
  });

  it('recovers by itself once a worker consumes the queue again', async () => {
    const worker = await startConnectorWorker({
      AMQP_URL: world.platform.env.AMQP_URL!,
      MASTER_KEY: world.platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: world.worker.settings.CONNECTOR_QUEUE_PREFIX,
      CONNECTOR_TYPE: world.worker.settings.CONNECTOR_TYPE,
    });
    try {
      await worker.broker.waitUntilConnected(10_000);
      await eventually(
        'a 200 once the worker serves',
        async () => (await verify()).res.status === 200,
        {
          timeoutMs: 15_000,
          intervalMs: 250,
        },
      );
    } finally {
      await worker.stop();
    }
  });
});
