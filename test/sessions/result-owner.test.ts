// A session's one-time result (retention "until retrieved") belongs to the licence that created the
// session: other licences of the community get 404 on every read path and consume nothing, a
// system licence sees the state only, and the owner's read, through the result poll or GET
// /verification/{id} alike, takes the session's images with the result in the same step. The same
// holds for the other one-time results: an async /verify run's and a kept sync /verify result.
import { expect } from 'chai';
import { IdvClient } from '@idv/client';
import {
  CONSENT_TEXT_VERSION,
  type SessionView,
  type VerificationView,
  type VerifyRequest,
  type VerifyResult,
} from '@idv/contracts';
import { LicenceStore } from '@idv/platform';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describe('sessions: the result and its images go to the creating licence only, together', function () {
  this.timeout(120_000);
  let w: SessionWorld;
  let owner: IdvClient;
  let sameCommunity: IdvClient;
  before(async () => {
    w = await startSessionWorld({
      name: 'session-owner',
      settings: { dataRetention: { pii_retention_off: false, pii_retention_ttl: -1 } },
    });
    owner = w.client('community');
    // a second community licence of the same community, as another integration would hold
    const second = await new LicenceStore(w.platform.database.db).create({
      level: 'community',
      communityIds: [w.platform.community.id],
    });
    sameCommunity = new IdvClient({ baseUrl: w.url, licenseKey: second.licenseKey });
  });
  after(async () => w?.stop());

  const db = () => w.platform.database.db;
  const imagesOf = async (sessionId: string) =>
    (await db()('docverify.session_images').where({ session_id: sessionId })).length;
  const keptResult = async (runId: string) =>
    (await db()('docverify.verification_runs').where({ id: runId }).first()).result_sealed as
      string | null;
  const result = (client: IdvClient, sessionId: string) =>
    client.encryptedRequest<SessionView>('POST', '/document_share_session/result', {
      dvcID: 'kyc-session',
      sessionId,
    });
  const verification = async (client: IdvClient, id: string) => {
    const res = await client.request<{ data: string }>('GET', `/verification/${id}`);
    return {
      status: res.status,
      view:
        res.status === 200 ? await client.decryptJson<VerificationView>(res.body.data) : undefined,
    };
  };

  /** A passport session of `owner`, captured, submitted and completed (seen by the system licence). */
  async function completedSession() {
    const created = await owner.createSession('kyc-session', {
      documentType: 'PASSPORT',
      userUID: 'user-testy-owner',
    });
    const page = w.page(tokenOf(created.url));
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    expect((await page.put('passport', w.images.passport, 'image/jpeg')).body).to.include({
      accepted: true,
    });
    expect((await page.put('selfie', w.images.selfie, 'image/jpeg')).body).to.include({
      accepted: true,
    });
    expect((await page.post('/submit')).status).to.equal(200);
    const done = await eventually('the session to complete', async () => {
      const seen = await result(w.client('system'), created.sessionId);
      expect(seen.status).to.equal(200);
      return seen.body.state === 'completed' ? seen.body : undefined;
    });
    // the system licence sees the state, not the result, and consumed nothing
    expect(done).not.to.have.property('result');
    const runId = done.verificationId!;
    expect(await imagesOf(created.sessionId)).to.equal(2);
    expect(await keptResult(runId)).to.be.a('string');
    return { sessionId: created.sessionId, runId, page };
  }

  /** Every read path of a licence that did not create the session: 404, nothing consumed. */
  async function othersAreRefused(s: { sessionId: string; runId: string }) {
    for (const [name, client] of [
      ['same community', sameCommunity],
      ['service', w.client('service')],
    ] as const) {
      expect((await result(client, s.sessionId)).status, `${name}: result`).to.equal(404);
      expect((await verification(client, s.runId)).status, `${name}: GET /verification`).to.equal(
        404,
      );
      const cancel = await client.encryptedRequest('POST', '/document_share_session/cancel', {
        dvcID: 'kyc-session',
        sessionId: s.sessionId,
      });
      expect(cancel.status, `${name}: cancel`).to.equal(404);
    }
    const system = await verification(w.client('system'), s.runId);
    expect(system.status).to.equal(200);
    expect(system.view).to.deep.equal({ verificationId: s.runId, status: 'completed' });
    expect(await imagesOf(s.sessionId), 'images still kept for the owner').to.equal(2);
    expect(await keptResult(s.runId), 'result still kept for the owner').to.be.a('string');
  }

  /** After the owner's read: no image row, no kept result, nothing of them through the page API. */
  async function nothingLeft(s: {
    sessionId: string;
    runId: string;
    page: ReturnType<SessionWorld['page']>;
  }) {
    expect(await imagesOf(s.sessionId)).to.equal(0);
    expect(await keptResult(s.runId)).to.equal(null);
    expect((await s.page.get('/session')).status, 'the page API of an ended session').to.equal(410);
    expect((await s.page.get('/status')).body).to.deep.equal({
      state: 'completed',
      redirectUrl: null,
    });
    expect((await s.page.get('/images/passport')).status, 'no read path for images').to.equal(405);
    expect((await result(owner, s.sessionId)).body)
      .to.include({ state: 'completed' })
      .and.not.to.have.property('result');
    expect((await verification(owner, s.runId)).view).to.deep.equal({
      verificationId: s.runId,
      status: 'completed',
    });
  }

  it('result poll: other licences cannot consume it; the owner gets it and the images go with it', async () => {
    const s = await completedSession();
    await othersAreRefused(s);
    const read = await result(owner, s.sessionId);
    expect(read.status).to.equal(200);
    expect((read.body.result as VerifyResult | undefined)?.verificationId).to.equal(s.runId);
    await nothingLeft(s);
  });

  it('GET /verification/{id}: the same rules; the owner read takes the images too', async () => {
    const s = await completedSession();
    await othersAreRefused(s);
    const read = await verification(owner, s.runId);
    expect(read.status).to.equal(200);
    expect(read.view?.result?.verificationId).to.equal(s.runId);
    await nothingLeft(s);
  });

  it('async and kept /verify results: the same rules for the licence that asked', async () => {
    const request: VerifyRequest = {
      dvcID: 'kyc-session',
      verifications: ['face_compare'],
      document: {
        id: 'doc-owner',
        type: 'selfie',
        liveId: w.images.selfie.toString('base64'),
        image2: Buffer.from('FACE:testy').toString('base64'),
      },
    };
    const { verificationId: asyncId } = await owner.verifyAsync(request);
    const sync = await owner.encryptedRequest<VerifyResult>('POST', '/verify', request);
    expect(sync.status).to.equal(200);
    await eventually('the async run to complete', async () =>
      (await verification(w.client('system'), asyncId)).view?.status === 'completed'
        ? true
        : undefined,
    );
    for (const id of [asyncId, sync.body.verificationId]) {
      expect((await verification(sameCommunity, id)).status, id).to.equal(404);
      expect((await verification(w.client('service'), id)).status, id).to.equal(404);
      expect((await verification(w.client('system'), id)).view, id).to.deep.equal({
        verificationId: id,
        status: 'completed',
      });
      expect((await verification(owner, id)).view?.result?.verificationId, id).to.equal(id);
    }
    // read once: the run stays known without its result, the kept result is gone
    expect((await verification(owner, asyncId)).view).to.deep.equal({
      verificationId: asyncId,
      status: 'completed',
    });
    expect((await verification(owner, sync.body.verificationId)).status).to.equal(404);
  });
});
