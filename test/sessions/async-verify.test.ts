// POST /verify with `Prefer: respond-async`: 202 at once with Location and Preference-Applied, the
// result by GET /verification/{id} (read once) and by event; without the header /verify answers as
// before. Through the SDK (libs/client) as callers use it, and by hand for the headers.
import { expect } from 'chai';
import { IdvRequestError } from '@idv/client';
import type { VerifyRequest } from '@idv/contracts';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

describe('async /verify: Prefer: respond-async', function () {
  this.timeout(90_000);
  let w: SessionWorld;
  before(async () => {
    w = await startSessionWorld({ name: 'async-verify' });
  });
  after(async () => w?.stop());

  const request = (w: SessionWorld, face = 'testy'): VerifyRequest => ({
    dvcID: 'kyc-session',
    verifications: ['face_compare', 'face_liveness'],
    document: {
      id: 'doc-async',
      type: 'selfie',
      liveId: w.images.selfie.toString('base64'),
      image2: Buffer.from(`FACE:${face}`).toString('base64'),
    },
  });

  it('answers 202 with Location and Preference-Applied, then the result once, and the event', async () => {
    const caller = w.client('service');
    const res = await caller.request<{ verificationId: string; status: string }>(
      'POST',
      '/verify',
      { data: await caller.encryptJson(request(w)) },
      { prefer: 'wait=5, respond-async' },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const { verificationId } = res.body;
    expect(res.body).to.deep.equal({ verificationId, status: 'processing' });
    expect(res.headers.get('location')).to.equal(`/verification/${verificationId}`);
    expect(res.headers.get('preference-applied')).to.equal('respond-async');

    const done = await caller.waitForVerification(verificationId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(done.status).to.equal('completed');
    expect(done.result?.verificationId).to.equal(verificationId);
    expect(done.result?.certifications.map((c) => [c.kind, c.verified])).to.deep.equal([
      ['face_compare', true],
      ['face_liveness', true],
    ]);
    // no retention: the result went with its first read; the verification is still known
    expect(await caller.verification(verificationId)).to.deep.equal({
      verificationId,
      status: 'completed',
    });
    const event = await eventually('E_IDV_VERIFICATION_COMPLETED', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_VERIFICATION_COMPLETED' &&
          (e.data as { verificationId: string }).verificationId === verificationId,
      ),
    );
    expect(event.data).to.deep.equal({
      verificationId,
      dvcID: 'kyc-session',
      status: 'verified',
      verifications: ['face_compare', 'face_liveness'],
    });
    await eventually('the face event', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_FACE_VALIDATE' &&
          (e.data as { verificationId: string }).verificationId === verificationId,
      ),
    );
  });

  it('reports a not-verified result the same way, and keeps sync /verify unchanged', async () => {
    const caller = w.client('service');
    const { verificationId, status } = await caller.verifyAsync(request(w, 'fakey'));
    expect(status).to.equal('processing');
    const done = await caller.waitForVerification(verificationId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(done.result?.status).to.equal('not_verified');
    const sync = await caller.encryptedRequest<{ verificationId: string; status: string }>(
      'POST',
      '/verify',
      request(w),
    );
    expect(sync.status).to.equal(200);
    expect(sync.body.status).to.equal('verified');
    expect(sync.headers.get('preference-applied')).to.equal(null);
  });

  it('refuses at once what a run could not do: a bad request, an unknown config, an unconfigured kind', async () => {
    const caller = w.client('service');
    const refused = async (body: unknown) => {
      try {
        await caller.verifyAsync(body as VerifyRequest);
        return 0;
      } catch (err) {
        return (err as IdvRequestError).status;
      }
    };
    expect(await refused({ ...request(w), document: { id: 'x', type: 'selfie' } })).to.equal(400);
    expect(await refused({ ...request(w), dvcID: 'nope' })).to.equal(404);
    expect(
      await refused({
        ...request(w),
        verifications: ['ssn_verify'],
        document: { id: 'x', type: 'x' },
      }),
    ).to.equal(400);
    expect(await w.platform.database.db('docverify.verification_runs')).to.have.length(2);
  });

  it('GET /verification: another community or an unknown id is 404', async () => {
    const { verificationId } = await w.client('service').verifyAsync(request(w));
    const other = await w
      .client('serviceElsewhere')
      .request('GET', `/verification/${verificationId}`);
    expect(other.status).to.equal(404);
    expect(
      (
        await w
          .client('service')
          .request('GET', '/verification/00000000-0000-4000-8000-000000000000')
      ).status,
    ).to.equal(404);
    await w
      .client('service')
      .waitForVerification(verificationId, { intervalMs: 100, timeoutMs: 20_000 });
  });
});
