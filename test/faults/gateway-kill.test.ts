// Gateways SIGKILLed under load and started again, as a container runtime would: no request hangs
// past its deadline (in-flight ones fail with a reset, new ones are refused while it is down), the
// restarted process serves again, and every event a gateway accepted (202) reaches its webhook.
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import {
  DEADLINE_MS,
  freePort,
  ServiceProcess,
  startLoad,
  tally,
  undelivered,
  until,
  type Outcome,
} from './support.ts';

describe('faults: a gateway killed with SIGKILL under load', function () {
  this.timeout(180_000);
  let world: VerifyWorld;
  const processes: ServiceProcess[] = [];

  before(async () => {
    world = await startVerifyWorld({ name: 'gwkill', dispatcher: true });
    await world.subscribe('/documents', ['E_IDV_DOCUMENT_VALIDATE']);
    await world.subscribe('/faces', ['E_IDV_FACE_VALIDATE']);
  });
  after(async () => {
    for (const p of processes) await p.stop();
    await world?.stop();
  });

  /** A second replica of a gateway, on the suite's database, as its own process. */
  async function gatewayProcess(entry: string, portVariable: string) {
    const port = await freePort();
    const gateway = new ServiceProcess(
      entry,
      { ...world.platform.env, [portVariable]: String(port) },
      `http://127.0.0.1:${port}/healthz`,
    );
    processes.push(gateway);
    await gateway.start();
    return { gateway, url: `http://127.0.0.1:${port}` };
  }

  /** Load; SIGKILL after `killAfter` outcomes; start it again; go on for `afterRestart` more. */
  async function killUnderLoad(
    gateway: ServiceProcess,
    op: () => Promise<{ status: number; body?: unknown }>,
    killAfter: number,
    afterRestart: number,
  ): Promise<{ outcomes: Outcome[]; afterRestart: Outcome[] }> {
    const restarted: { at?: number } = {};
    const load = startLoad(
      8,
      op,
      (o) => restarted.at !== undefined && o.length >= restarted.at + afterRestart,
      DEADLINE_MS,
    );
    await until('load to build up', () => load.outcomes.length >= killAfter);
    await gateway.kill();
    await gateway.start();
    restarted.at = load.outcomes.length;
    const outcomes = await load.finished;
    return { outcomes, afterRestart: outcomes.slice(restarted.at) };
  }

  /** No hang; each call answered, refused (503) or cut by the kill; served again afterwards. */
  function expectSurvived(
    name: string,
    run: { outcomes: Outcome[]; afterRestart: Outcome[] },
    ok: number,
  ) {
    console.log(`      ${name} around the kill: ${JSON.stringify(tally(run.outcomes))}`);
    expect(
      run.outcomes.filter((o) => o.status === -1),
      'hung requests',
    ).to.have.length(0);
    for (const o of run.outcomes) expect([ok, 503, 0], JSON.stringify(o)).to.include(o.status);
    expect(run.afterRestart.filter((o) => o.status === ok).length).to.be.greaterThan(0);
    return run.outcomes.filter((o) => o.status === ok).map((o) => o.body);
  }

  it('docverify: every /verify ends within its deadline, the restarted gateway verifies again, and every verification answered has its event', async () => {
    const { gateway, url } = await gatewayProcess(
      'services/docverify-gateway/src/main.ts',
      'DOCVERIFY_PORT',
    );
    const caller = new IdvClient({ baseUrl: url, licenseKey: world.platform.licences.community });
    const run = await killUnderLoad(
      gateway,
      () => caller.encryptedRequest('POST', '/verify', world.verifyBody()),
      60,
      120,
    );
    const answered = expectSurvived('/verify', run, 200) as {
      status: string;
      verificationId: string;
    }[];
    for (const body of answered) expect(body.status).to.equal('verified');
    const { missing } = await undelivered(
      answered.map((b) => b.verificationId),
      () => world.verificationEvents('/faces'),
    );
    expect(missing, 'verifications answered whose event never came').to.deep.equal([]);
  });

  it('webhooks: every event accepted before or after the kill reaches the webhook', async () => {
    const { gateway, url } = await gatewayProcess(
      'services/webhooks-gateway/src/main.ts',
      'WEBHOOKS_PORT',
    );
    const c = world.platform.community;
    const client = new IdvClient({ baseUrl: url, licenseKey: world.platform.licences.service });
    const run = await killUnderLoad(
      gateway,
      () =>
        client.request(
          'PUT',
          `/tenant/${c.tenantId}/community/${c.id}/event/E_IDV_DOCUMENT_VALIDATE`,
          {
            dvcID: 'kyc',
            docType: 'passport',
            status: 'verified',
          },
        ),
      100,
      200,
    );
    const accepted = (expectSurvived('event intake', run, 202) as { eventId: string }[]).map(
      (b) => b.eventId,
    );
    const { missing } = await undelivered(accepted, () => world.delivered('/documents'));
    expect(
      missing,
      `${missing.length} of ${accepted.length} accepted events never delivered`,
    ).to.deep.equal([]);
  });
});
