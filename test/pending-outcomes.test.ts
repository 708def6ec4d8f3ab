// Pending outcomes followed to the end, across the platform: a /verify whose agent review the
// provider sandbox decides seconds later answers `pending`, GET /verification/{id} follows it, and
// the worker's polls (or the provider's signed callback to POST /connector-callback/{verifierId})
// settle it: completed, re-signed, with E_IDV_* events delivered to a subscribed webhook. The
// unhappy paths: a bad or stale signature 401, an unknown verifier, run or kind 404, a replayed
// callback is refused and a fresh one after the end changes nothing, a review never decided settles
// inconclusive at the follow-up deadline. (The binding of a callback to its run, kind and reference:
// test/security/connector-callback-binding.test.ts.)
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { VerificationView, VerifyResult } from '@idv/contracts';
import { connectorCallbackSignature } from '@idv/crypto';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';
import { freePort } from '@idv/testing/freePort';
import { platformKeyring } from '@idv/testing/platform';
import { eventually } from '@idv/testing/eventually';

const reviewImage = (fixture: string, afterMs: number) =>
  Buffer.from(`DOC:${fixture}\nREVIEW:${afterMs}`).toString('base64');

/** A port free now, so a gateway can be told its own callback address before it starts. */

/** POST /verify (sync) of a dl whose agent review is decided `afterMs` later. */
async function verifyPending(world: VerifyWorld, fixture: string, afterMs: number) {
  const res = await world
    .client('docverify', 'service')
    .encryptedRequest<VerifyResult>(
      'POST',
      '/verify',
      world.verifyBody({ id: 'doc-p', type: 'dl', front_image: reviewImage(fixture, afterMs) }),
    );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

const waitFor = (world: VerifyWorld, id: string): Promise<VerificationView> =>
  world
    .client('docverify', 'service')
    .waitForVerification(id, { intervalMs: 200, timeoutMs: 20_000 });

/** The webhook events the sink got at `path` for `verificationId`, verified as Standard Webhooks. */
function eventsAt(world: VerifyWorld, path: string, secret: string, verificationId: string) {
  return world
    .sink!.received.filter((r) => r.path === path)
    .map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
          eventName: string;
          data: { verificationId: string; status?: string };
        },
    )
    .filter((e) => e.data.verificationId === verificationId);
}

/** Waits until the sink holds at least `count` events at `path` for `verificationId`. */
const eventsFor = (
  world: VerifyWorld,
  path: string,
  secret: string,
  verificationId: string,
  count: number,
) =>
  eventually(`${count} events at ${path} for ${verificationId}`, () => {
    const mine = eventsAt(world, path, secret, verificationId);
    return mine.length >= count ? mine : undefined;
  });

describe('pending outcomes by poll: a review decided later completes the verification', function () {
  this.timeout(90_000);
  let world: VerifyWorld;

  before(async () => {
    world = await startVerifyWorld({
      name: 'pending-poll',
      connectorType: 'agent_review',
      kind: 'dl_authenticate',
      dispatcher: true,
      platform: { PENDING_FOLLOW_UP_MS: '6000' },
      workerEnv: { FOLLOW_UP_FIRST_POLL_MS: '500', FOLLOW_UP_MAX_POLL_MS: '1000' },
    });
  });
  after(async () => world?.stop());

  it('answers pending, then GET /verification says approved and the webhook gets the events', async () => {
    const hook = await world.subscribe('/poll', [
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_VERIFICATION_COMPLETED',
    ]);
    const started = Date.now();
    const answer = await verifyPending(world, 'testy', 3000);
    expect(answer.status).to.equal('pending');
    const [pending] = answer.certifications;
    expect(pending).to.include({ kind: 'dl_authenticate', status: 'pending', verified: false });
    expect(pending!.result?.followUp).to.include({ how: 'poll' });
    const id = answer.verificationId;
    expect(await world.client('docverify', 'service').verification(id)).to.deep.equal({
      verificationId: id,
      status: 'pending',
    });
    const held = await world.platform.database
      .db('docverify.verification_runs')
      .where({ id })
      .first();
    expect(
      held.request_sealed,
      'no comparison configured: nothing of the request is kept',
    ).to.equal(null);

    const done = await waitFor(world, id);
    expect(Date.now() - started, 'decided 3 s later').to.be.at.least(2900);
    expect(done.status).to.equal('completed');
    expect(done.result?.status).to.equal('verified');
    expect(done.result?.certifications[0]).to.include({
      kind: 'dl_authenticate',
      status: 'verified',
      verified: true,
      verifier: 'provider',
    });
    const events = await eventsFor(world, '/poll', hook.secret, id, 2);
    expect(events.map((e) => e.eventName).sort()).to.deep.equal([
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_VERIFICATION_COMPLETED',
    ]);
    expect(
      events.find((e) => e.eventName === 'E_IDV_VERIFICATION_COMPLETED')?.data.status,
    ).to.equal('verified');
    expect(JSON.stringify(events)).not.to.match(/McTestface|doc-p/);
  });

  it("compares the caller's names with the document the decided review yields, images not kept", async () => {
    const { community } = world.platform;
    const admin = world.client('docverify', 'service');
    const made = await admin.request('PUT', `/verificationConfig/community/${community.id}`, {
      tenantId: community.tenantId,
      tag: 'kyc-compare',
      dl_authenticate: [{ verifier: 'provider' }],
      settings: {
        dataComparisonAttributes: [{ module: 'lastname check', criteria: { value: 'eq' } }],
      },
    });
    expect(made.status).to.equal(200);
    const document = {
      id: 'doc-c',
      type: 'dl',
      lastName: 'McTestface',
      front_image: reviewImage('testy', 1000),
    };
    const res = await admin.encryptedRequest<VerifyResult>('POST', '/verify', {
      dvcID: 'kyc-compare',
      verifications: ['dl_authenticate'],
      document,
    });
    expect(res.body.status).to.equal('pending');
    const held = await world.platform.database
      .db('docverify.verification_runs')
      .where({ id: res.body.verificationId })
      .first();
    expect(held.request_sealed, 'the names are held for the comparison').to.be.a('string');
    const opened = await platformKeyring(world.platform).open(
      held.request_sealed,
      res.body.verificationId,
    );
    expect(JSON.parse(opened).document).to.deep.equal({
      id: 'doc-c',
      type: 'dl',
      lastName: 'McTestface',
    });
    const done = await waitFor(world, res.body.verificationId);
    expect(done.result?.certifications.map((c) => [c.kind, c.status])).to.deep.equal([
      ['dl_authenticate', 'verified'],
      ['data_comparison', 'verified'],
    ]);
  });

  it('a review never decided settles inconclusive when the follow-up deadline passes', async () => {
    const answer = await verifyPending(world, 'testy', 600_000);
    expect(answer.status).to.equal('pending');
    const done = await waitFor(world, answer.verificationId);
    expect(done.status).to.equal('completed');
    expect(done.result?.status).to.equal('not_verified');
    expect(done.result?.certifications[0]?.status).to.equal('inconclusive');
    expect(done.result?.certifications[0]?.result?.reasons).to.deep.equal([
      'follow_up_deadline_passed',
    ]);
  });
});

describe('pending outcomes by callback: the provider calls POST /connector-callback/{verifierId}', function () {
  this.timeout(90_000);
  let world: VerifyWorld;
  let gatewayUrl: string;
  let verifierId: string;

  before(async () => {
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    world = await startVerifyWorld({
      name: 'pending-callback',
      connectorType: 'agent_review',
      kind: 'dl_authenticate',
      dispatcher: true,
      platform: { DOCVERIFY_PORT: String(port), CONNECTOR_CALLBACK_URL: gatewayUrl },
      // polls would come only after a minute: what settles here is the callback
      workerEnv: { FOLLOW_UP_MAX_POLL_MS: '60000' },
    });
    const { community } = world.platform;
    const res = await world
      .client('docverify', 'service')
      .request<{ id: string }>('GET', `/verifier/community/${community.id}/provider`);
    verifierId = res.body.id;
  });
  after(async () => world?.stop());

  /** Posts `body` as the provider would, signed (v2) with `secret` at `at` (ms). */
  const callBack = (
    query: string,
    body: string,
    secret = 'sandbox-key',
    at = Date.now(),
    id = verifierId,
  ) => {
    const timestamp = String(Math.floor(at / 1000));
    const target = `/connector-callback/${id}?${query}`;
    const signature = connectorCallbackSignature(secret, {
      timestamp,
      method: 'POST',
      target,
      body,
    });
    return fetch(`${gatewayUrl}${target}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-callback-timestamp': timestamp,
        'x-callback-signature': signature,
      },
      body,
    });
  };

  it('a declined review reaches the caller and the webhook through the callback', async () => {
    const hook = await world.subscribe('/callback', [
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_VERIFICATION_COMPLETED',
    ]);
    const answer = await verifyPending(world, 'forged', 3000);
    expect(answer.status).to.equal('pending');
    expect(answer.certifications[0]?.result?.followUp).to.include({ how: 'callback' });
    const done = await waitFor(world, answer.verificationId);
    expect(done.result?.status).to.equal('not_verified');
    expect(done.result?.certifications[0]).to.include({ status: 'not_verified', verified: false });
    expect(done.result?.certifications[0]?.result?.reasons).to.deep.equal(['tampering_detected']);
    const events = await eventsFor(world, '/callback', hook.secret, answer.verificationId, 2);
    expect(
      events.find((e) => e.eventName === 'E_IDV_VERIFICATION_COMPLETED')?.data.status,
    ).to.equal('not_verified');
  });

  it('refuses a bad or stale signature (401) and an unknown verifier, run or kind (404)', async () => {
    const answer = await verifyPending(world, 'testy', 600_000);
    const query = `verificationId=${answer.verificationId}&kind=dl_authenticate`;
    const reference = answer.certifications[0]!.result!.followUp!.reference;
    const body = JSON.stringify({ reviewId: reference, decision: 'approved', reasons: [] });
    expect((await callBack(query, body, 'sandbox-other')).status, 'wrong secret').to.equal(401);
    expect(
      (await callBack(query, body, 'sandbox-key', Date.now() - 600_000)).status,
      'stale',
    ).to.equal(401);
    const unsigned = await fetch(`${gatewayUrl}/connector-callback/${verifierId}?${query}`, {
      method: 'POST',
      body,
    });
    expect(unsigned.status, 'unsigned').to.equal(401);
    expect((await unsigned.json()) as object).to.include({ statusCode: 401 });
    expect(
      (
        await callBack(
          query,
          body,
          'sandbox-key',
          Date.now(),
          '00000000-0000-4000-8000-000000000000',
        )
      ).status,
      'unknown verifier',
    ).to.equal(404);
    expect(
      (
        await callBack(
          `verificationId=00000000-0000-4000-8000-000000000000&kind=dl_authenticate`,
          body,
        )
      ).status,
      'unknown run',
    ).to.equal(404);
    expect(
      (await callBack(`verificationId=${answer.verificationId}&kind=face_compare`, body)).status,
      'kind not pending',
    ).to.equal(404);
    expect((await callBack(query, '{not json')).status, 'not JSON').to.equal(400);
    expect(
      (await world.client('docverify', 'service').verification(answer.verificationId)).status,
      'still pending',
    ).to.equal('pending');
  });

  it('a replayed callback is refused, a fresh one after the end changes nothing, one event only', async () => {
    const hook = await world.subscribe('/replay', ['E_IDV_VERIFICATION_COMPLETED']);
    const answer = await verifyPending(world, 'testy', 600_000);
    const query = `verificationId=${answer.verificationId}&kind=dl_authenticate`;
    const reference = answer.certifications[0]!.result!.followUp!.reference;
    const body = JSON.stringify({ reviewId: reference, decision: 'approved', reasons: [] });
    const at = Date.now();
    expect((await callBack(query, body, 'sandbox-key', at)).status).to.equal(202);
    const done = await waitFor(world, answer.verificationId);
    expect(done.result?.status).to.equal('verified');
    const replayed = await callBack(query, body, 'sandbox-key', at);
    expect(replayed.status, 'the same signed callback again').to.equal(409);
    const fresh = await callBack(query, body, 'sandbox-key', at + 1000);
    expect(fresh.status, 'signed anew').to.equal(202);
    expect(await fresh.json()).to.deep.equal({ status: 'not_pending' });
    await eventsFor(world, '/replay', hook.secret, answer.verificationId, 1);
    // a marker: another run decided after the fresh callback, its event to the same webhook; an
    // event the fresh callback had emitted would have been published, and delivered, before it
    const after = await verifyPending(world, 'testy', 600_000);
    const afterReference = after.certifications[0]!.result!.followUp!.reference;
    const afterBody = JSON.stringify({
      reviewId: afterReference,
      decision: 'approved',
      reasons: [],
    });
    const afterQuery = `verificationId=${after.verificationId}&kind=dl_authenticate`;
    expect((await callBack(afterQuery, afterBody)).status).to.equal(202);
    await eventsFor(world, '/replay', hook.secret, after.verificationId, 1);
    expect(eventsAt(world, '/replay', hook.secret, answer.verificationId)).to.have.length(1);
  });
});
