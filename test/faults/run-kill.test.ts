// A gateway SIGKILLed in the middle of a verification run: the run's message was not acked, so the
// broker gives it to the next gateway consuming the runs queue, which runs it again under the same
// verificationId; the run is stored once and its event published once.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { RUN_WAIT_TIERS_MS, runWaitQueue } from '@idv/contracts';
import { testAmqpUrl } from '@idv/testing/testServers';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';
import { freePort, ServiceProcess } from './support.ts';

describe('faults: a gateway killed mid-run', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  const processes: ServiceProcess[] = [];
  const queue = `test.run-kill.runs.${randomBytes(4).toString('hex')}`;

  before(async () => {
    w = await startSessionWorld({ name: 'run-kill' });
    const admin = w.client('service');
    const c = w.platform.community;
    const slow = await admin.request('PUT', `/verifier/community/${c.id}`, {
      name: 'slow faces',
      tag: 'slowfaces',
      type: 'face_compare_b',
      connectorUrl: `${w.sandbox.url}/s/slow`,
      config: { apiKey: 'sandbox-key' },
    });
    const config = await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'slow-faces',
      face_compare: [{ verifier: 'slowfaces' }],
    });
    expect([slow.status, config.status]).to.deep.equal([200, 200]);
    w.sandbox.faults.set('slow', { latencyMs: 3000 });
  });
  after(async () => {
    for (const p of processes) await p.stop();
    await w?.stop();
    await deleteQueues(await testAmqpUrl(), [
      queue,
      ...RUN_WAIT_TIERS_MS.map((tier) => runWaitQueue(queue, tier)),
    ]);
  });

  /** A gateway replica as its own process, consuming the suite's own runs queue. */
  async function gateway(): Promise<{ process: ServiceProcess; url: string }> {
    const port = await freePort();
    const env = { ...w.platform.env, DOCVERIFY_PORT: String(port), DOCVERIFY_RUNS_QUEUE: queue };
    const proc = new ServiceProcess(
      'services/docverify-gateway/src/main.ts',
      env,
      `http://127.0.0.1:${port}/healthz`,
    );
    processes.push(proc);
    await proc.start();
    return { process: proc, url: `http://127.0.0.1:${port}` };
  }

  it('re-runs the run on another gateway; stored once, one event', async () => {
    const first = await gateway();
    const caller = new IdvClient({ baseUrl: first.url, licenseKey: w.platform.licences.service });
    const face = w.images.selfie.toString('base64');
    const { verificationId } = await caller.verifyAsync({
      dvcID: 'slow-faces',
      verifications: ['face_compare'],
      document: { id: 'doc-kill', type: 'selfie', liveId: face, image2: face },
    });
    const db = w.platform.database.db;
    const runOf = async () =>
      db('docverify.verification_runs').where({ id: verificationId }).first();
    // the run started and its provider call is under way: kill the gateway that runs it
    await eventually('the provider call', () =>
      w.sandbox.faults.callsOf('slow') >= 1 ? true : undefined,
    );
    expect((await runOf()).starts).to.equal(1);
    await first.process.kill();
    expect((await runOf()).status).to.equal('processing');

    const second = await gateway();
    const reader = new IdvClient({ baseUrl: second.url, licenseKey: w.platform.licences.service });
    const done = await reader.waitForVerification(verificationId, {
      intervalMs: 200,
      timeoutMs: 60_000,
    });
    expect(done.status).to.equal('completed');
    expect(done.result?.verificationId).to.equal(verificationId);
    expect(done.result?.certifications.map((c) => [c.kind, c.verified])).to.deep.equal([
      ['face_compare', true],
    ]);
    expect((await runOf()).starts).to.equal(2);
    expect(w.sandbox.faults.callsOf('slow')).to.equal(2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const events = w.events.filter(
      (e) =>
        e.eventName === 'E_IDV_VERIFICATION_COMPLETED' &&
        (e.data as { verificationId: string }).verificationId === verificationId,
    );
    expect(events).to.have.length(1);
  });
});
