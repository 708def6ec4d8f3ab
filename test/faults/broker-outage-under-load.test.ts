// RabbitMQ taken away for IDV_FAULTS_OUTAGE_S seconds (10 by default) while callers keep sending
// events and verifications: meanwhile clear 503s with the error body and no hang; afterwards the
// services reconnect by themselves; every event accepted (202, so confirmed by the broker) and
// every verification answered 200 (its event kept in the outbox) reaches its webhook.
import { expect } from 'chai';
import { testAmqpUrl } from '@idv/testing/testServers';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import {
  brokerOutage,
  expectOutageBehaviour,
  loadThroughOutage,
  outageMs,
  tally,
  undelivered,
  type Outage,
  type PhasedLoad,
} from './support.ts';

describe(`faults: RabbitMQ away for ${outageMs / 1000} s under load`, function () {
  this.timeout(180_000 + outageMs);
  let outage: Outage;
  let world: VerifyWorld;

  before(async () => {
    outage = await brokerOutage(await testAmqpUrl());
    world = await startVerifyWorld({ name: 'brokerload', amqpUrl: outage.url, dispatcher: true });
    await world.subscribe('/documents', ['E_IDV_DOCUMENT_VALIDATE']);
    await world.subscribe('/faces', ['E_IDV_FACE_VALIDATE']);
  });
  after(async () => {
    await outage?.start();
    await world?.stop();
    await outage?.close();
  });

  it('answers 503 meanwhile, recovers by itself and loses no accepted event', async () => {
    const { community } = world.platform;
    const intake = world.client('webhooks', 'service');
    const caller = world.client('docverify', 'community');
    const loads: PhasedLoad[] = [
      {
        concurrency: 6,
        ok: 202,
        op: (i) =>
          intake.request(
            'PUT',
            `/tenant/${community.tenantId}/community/${community.id}/event/E_IDV_DOCUMENT_VALIDATE`,
            { dvcID: `kyc-${i}`, docType: 'passport', status: 'verified' },
          ),
      },
      {
        concurrency: 2,
        ok: 200,
        op: () => caller.encryptedRequest('POST', '/verify', world.verifyBody()),
      },
    ];
    const run = await loadThroughOutage(outage, loads, 100, 100);
    const [events, verifications] = run.outcomes as [
      (typeof run.outcomes)[0],
      (typeof run.outcomes)[0],
    ];
    console.log(
      `      broker away ${run.awayMs} ms; events ${JSON.stringify(tally(events))}; /verify ${JSON.stringify(tally(verifications))}`,
    );
    expectOutageBehaviour(run, loads);

    const accepted = events
      .filter((o) => o.status === 202)
      .map((o) => (o.body as { eventId: string }).eventId);
    const lostEvents = await undelivered(accepted, () => world.delivered('/documents'));
    // each verification answered 200 owes one E_IDV_FACE_VALIDATE naming it
    const verified = verifications
      .filter((o) => o.status === 200)
      .map((o) => (o.body as { verificationId: string }).verificationId);
    const lostVerifications = await undelivered(verified, () => world.verificationEvents('/faces'));
    console.log(
      `      ${accepted.length} events accepted, ${lostEvents.missing.length} lost, ${lostEvents.repeats} delivered twice; ${verified.length} verifications, ${lostVerifications.missing.length} events lost`,
    );
    expect(lostEvents.missing, 'accepted events never delivered').to.deep.equal([]);
    expect(lostVerifications.missing, 'verifications whose event never came').to.deep.equal([]);
  });
});
