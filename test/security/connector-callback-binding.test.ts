// A provider's callback settles its own run only (security review, findings 5 and 9): the v2
// signature covers method, path and query, so a captured callback cannot be pointed at another run
// or kind; the body must name the reference its run waits for; a signature is accepted once, at
// every replica (the replay set is in PostgreSQL); and a signed body nested too deep is a 400, not
// a 500. Pending runs here are reviews of Testy McTestface's licence the sandbox decides only after
// ten minutes, so only the callbacks sent by the test settle anything.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { VerifyResult } from '@idv/contracts';
import { connectorCallbackSignature } from '@idv/crypto';
import { startDocverifyGateway } from '../../services/docverify-gateway/src/start.ts';
import { freePort } from '@idv/testing/freePort';
import { startVerifyWorld, type VerifyWorld } from '@idv/testing/verifyWorld';

const NEVER_MS = 600_000;
const reviewImage = (fixture: string) =>
  Buffer.from(`DOC:${fixture}\nREVIEW:${NEVER_MS}`).toString('base64');

interface PendingRun {
  verificationId: string;
  reference: string;
  query: string;
}

/**
 * Room for a refused callback to settle a run all the same. A fixed wait is the only proof: a refused
 * callback leaves no trace, and the gateway settles follow-ups several at once, so an honest
 * callback sent after is not surely settled after a wrong one.
 */
const NO_SETTLEMENT_MS = 500;

describe('security: a connector callback is bound to its run, kind and provider reference', function () {
  this.timeout(90_000);
  let world: VerifyWorld;
  let gatewayUrl: string;
  let replica: Awaited<ReturnType<typeof startDocverifyGateway>>;
  let verifierId: string;

  before(async () => {
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    world = await startVerifyWorld({
      name: 'callback-binding',
      connectorType: 'agent_review',
      kind: 'dl_authenticate',
      platform: { DOCVERIFY_PORT: String(port), CONNECTOR_CALLBACK_URL: gatewayUrl },
      // polls only after a minute: what settles a run here is a callback
      workerEnv: { FOLLOW_UP_MAX_POLL_MS: '60000' },
    });
    replica = await startDocverifyGateway({ ...world.platform.env, DOCVERIFY_PORT: '0' });
    const { community } = world.platform;
    const res = await world
      .client('docverify', 'service')
      .request<{ id: string }>('GET', `/verifier/community/${community.id}/provider`);
    verifierId = res.body.id;
  });
  after(async () => {
    await replica?.stop();
    await world?.stop();
  });

  /** A /verify whose agent review stays pending; its provider reference and callback query. */
  async function pendingRun(fixture = 'testy'): Promise<PendingRun> {
    const res = await world
      .client('docverify', 'service')
      .encryptedRequest<VerifyResult>(
        'POST',
        '/verify',
        world.verifyBody({ id: 'doc-b', type: 'dl', front_image: reviewImage(fixture) }),
      );
    expect(res.body.status, JSON.stringify(res.body)).to.equal('pending');
    const { verificationId } = res.body;
    const reference = res.body.certifications[0]!.result!.followUp!.reference;
    return {
      verificationId,
      reference,
      query: `verificationId=${verificationId}&kind=dl_authenticate`,
    };
  }

  /** A callback as the provider signs it (v2) for `query`, sent as captured: headers and body. */
  function signed(query: string, body: string, at = Date.now()) {
    const timestamp = String(Math.floor(at / 1000));
    const target = `/connector-callback/${verifierId}?${query}`;
    const signature = connectorCallbackSignature('sandbox-key', {
      timestamp,
      method: 'POST',
      target,
      body,
    });
    return {
      headers: {
        'content-type': 'application/json',
        'x-callback-timestamp': timestamp,
        'x-callback-signature': signature,
      },
      body,
    };
  }

  const send = (captured: ReturnType<typeof signed>, query: string, base = gatewayUrl) =>
    fetch(`${base}/connector-callback/${verifierId}?${query}`, { method: 'POST', ...captured });

  const approval = (reference: string) =>
    JSON.stringify({ reviewId: reference, decision: 'approved', reasons: [] });
  const statusOf = async (verificationId: string) =>
    (await world.client('docverify', 'service').verification(verificationId)).status;

  it('settles its own run: the honest callback is accepted and the run completes verified', async () => {
    const run = await pendingRun();
    const res = await send(signed(run.query, approval(run.reference)), run.query);
    expect(res.status, await res.clone().text()).to.equal(202);
    expect(await res.json()).to.deep.equal({ status: 'accepted' });
    const done = await world
      .client('docverify', 'service')
      .waitForVerification(run.verificationId, { intervalMs: 200, timeoutMs: 20_000 });
    expect(done.result?.status).to.equal('verified');
  });

  it('refuses a captured callback sent again, at the same replica or another (409)', async () => {
    const run = await pendingRun();
    const captured = signed(
      run.query,
      JSON.stringify({
        reviewId: run.reference,
        decision: 'pending',
        reasons: [],
        decideAt: Date.now() + NEVER_MS,
      }),
    );
    expect((await send(captured, run.query)).status, 'first').to.equal(202);
    const again = await send(captured, run.query);
    expect(again.status, 'same replica').to.equal(409);
    expect(await again.json()).to.include({ statusCode: 409, error: 'Conflict' });
    expect((await send(captured, run.query, replica.server.url)).status, 'other replica').to.equal(
      409,
    );
    const kept = await world.platform.database
      .db('docverify.callback_replays')
      .where({ verifier_id: verifierId });
    expect(kept.length, 'the replay set is in PostgreSQL').to.be.at.least(1);
    expect(await statusOf(run.verificationId)).to.equal('pending');
  });

  it('refuses the same signed callback with verificationId or kind swapped in the query (401)', async () => {
    const [mine, other] = [await pendingRun(), await pendingRun('forged')];
    // the attack of the finding: one captured "approved" callback pointed at another pending run
    const captured = signed(mine.query, approval(mine.reference));
    // (the same query in another order names the same run and kind: the address given is what counts)
    for (const query of [
      other.query,
      `verificationId=${mine.verificationId}&kind=ppt_authenticate`,
    ]) {
      const res = await send(captured, query);
      expect(res.status, query).to.equal(401);
      expect(((await res.json()) as { message: string }).message).to.match(/does not match/);
    }
    expect(await statusOf(other.verificationId), 'the forged document stays pending').to.equal(
      'pending',
    );
    expect(await statusOf(mine.verificationId)).to.equal('pending');
  });

  it("refuses a callback naming another run's reference (409): the other run stays pending", async () => {
    const [mine, other] = [await pendingRun(), await pendingRun('forged')];
    const res = await send(signed(mine.query, approval(other.reference)), mine.query);
    expect(res.status).to.equal(409);
    expect(((await res.json()) as { message: string }).message).to.match(
      /reviewId is not the reference/,
    );
    const unnamed = await send(
      signed(mine.query, JSON.stringify({ decision: 'approved' })),
      mine.query,
    );
    expect(unnamed.status, 'no reviewId at all').to.equal(400);
    await new Promise((resolve) => setTimeout(resolve, NO_SETTLEMENT_MS));
    expect(await statusOf(other.verificationId)).to.equal('pending');
    expect(await statusOf(mine.verificationId)).to.equal('pending');
  });

  it('remembers only a callback it accepted: one refused while its run was not yet pending is taken when sent again', async () => {
    const run = await pendingRun();
    const captured = signed(run.query, approval(run.reference));
    const runs = () =>
      world.platform.database.db('docverify.verification_runs').where({ id: run.verificationId });
    const { pending } = (await runs().select('pending').first()) as { pending: unknown };
    // the provider is quicker than the gateway: its callback comes before the run is parked
    await runs().update({ pending: null, status: 'processing' });
    expect((await send(captured, run.query)).status, 'too early').to.equal(404);
    await runs().update({ pending: JSON.stringify(pending), status: 'pending' });
    const retried = await send(captured, run.query);
    expect(retried.status, 'the same callback again').to.equal(202);
    expect((await send(captured, run.query)).status, 'and once accepted, a replay').to.equal(409);
  });

  it('takes a callback signed over the address the provider was given, behind a proxy that strips its prefix', async () => {
    const proxied = await startDocverifyGateway({
      ...world.platform.env,
      DOCVERIFY_PORT: '0',
      CONNECTOR_CALLBACK_URL: 'https://idv.bank.example/platform/',
    });
    try {
      const run = await pendingRun();
      const timestamp = String(Math.floor(Date.now() / 1000));
      const body = approval(run.reference);
      // the provider signs the URL it was given; the proxy forwards it without /platform
      const target = `/platform/connector-callback/${verifierId}?${run.query}`;
      const signature = connectorCallbackSignature('sandbox-key', {
        timestamp,
        method: 'POST',
        target,
        body,
      });
      const headers = {
        'content-type': 'application/json',
        'x-callback-timestamp': timestamp,
        'x-callback-signature': signature,
      };
      const res = await send({ headers, body }, run.query, proxied.server.url);
      expect(res.status, await res.clone().text()).to.equal(202);
      const forged = await send(
        signed(run.query, body),
        run.query.replace(run.verificationId, (await pendingRun('forged')).verificationId),
        proxied.server.url,
      );
      expect(forged.status, 'still bound to its run').to.equal(401);
    } finally {
      await proxied.stop();
    }
  });

  it('refuses a v1 signature, over timestamp and body only (401)', async () => {
    const run = await pendingRun();
    const body = approval(run.reference);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const v1 = `v1=${createHmac('sha256', 'sandbox-key').update(`${timestamp}.${body}`).digest('hex')}`;
    const res = await send(
      {
        headers: {
          'content-type': 'application/json',
          'x-callback-timestamp': timestamp,
          'x-callback-signature': v1,
        },
        body,
      },
      run.query,
    );
    expect(res.status).to.equal(401);
    expect(await statusOf(run.verificationId)).to.equal('pending');
  });

  it('answers 400 to a validly signed callback nesting 10,000 arrays, and keeps serving', async () => {
    const run = await pendingRun();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const body of [deep, `{"reviewId":"${run.reference}","decision":${deep}}`]) {
      const res = await send(signed(run.query, body), run.query);
      const answer = (await res.json()) as { statusCode: number; error: string; message: string };
      expect(res.status, answer.message).to.equal(400);
      expect(answer).to.include({ statusCode: 400, error: 'Bad Request' });
      expect(answer.message).to.match(/nests deeper than 32 levels/);
    }
    expect((await fetch(`${gatewayUrl}/healthz`)).status).to.equal(200);
    const settled = await send(
      signed(run.query, approval(run.reference), Date.now() + 1000),
      run.query,
    );
    expect(settled.status, 'the gateway still takes callbacks').to.equal(202);
  });
});
