// Sessions ended by their caller or their timers, on a clock the test moves: cancelled, expired
// (expireSessionInMin after creation) and abandoned (abandonSessionInMin after the last activity,
// which every page call pushes). Each emits its event and keeps no image afterwards.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION, type SessionView } from '@idv/contracts';
import { startSessionWorld, eventually, type SessionWorld } from '@idv/testing/sessionWorld';

const MINUTE = 60_000;
/**
 * Three passes of the session sweep (SESSION_SWEEP_MS 200 in the session world): the only proof that
 * a sweep racing the access applied the timer no second time. A sweep pass is not observable, and a
 * marker ended by the same pass would publish its event beside a duplicate, not surely after it.
 */
const SWEEPS_MS = 600;
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describe('sessions: cancel, expiry and abandonment on a controlled clock', function () {
  this.timeout(120_000);
  let w: SessionWorld;
  before(async () => {
    // the config keeps results (and so images) until retrieved once: the timers' own deletion shows
    w = await startSessionWorld({
      name: 'session-timers',
      settings: { dataRetention: { pii_retention_off: false, pii_retention_ttl: -1 } },
    });
  });
  after(async () => w?.stop());

  const create = async (documentType?: 'DL' | 'PASSPORT') => {
    const caller = w.client('service');
    const res = await caller.request<{ sessionId: string; url: string }>(
      'POST',
      '/document_share_session/create',
      {
        data: await caller.encryptJson({
          dvcID: 'kyc-session',
          sessionRequest: documentType ? { documentType } : {},
        }),
      },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { sessionId: res.body.sessionId, token: tokenOf(res.body.url) };
  };
  const stateOf = async (sessionId: string) =>
    (await w.platform.database.db('docverify.sessions').where({ id: sessionId }).first())
      .status as string;
  const imagesOf = async (sessionId: string) =>
    (await w.platform.database.db('docverify.session_images').where({ session_id: sessionId }))
      .length;
  const result = (sessionId: string, licence: 'service' | 'serviceElsewhere' = 'service') =>
    w.client(licence).encryptedRequest<SessionView>('POST', '/document_share_session/result', {
      dvcID: 'kyc-session',
      sessionId,
    });
  /** opens, consents and captures the passport: a session with one image kept */
  const capturing = async () => {
    const s = await create('PASSPORT');
    const page = w.page(s.token);
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    const verdict = await page.put('passport', w.images.passport, 'image/jpeg');
    expect(verdict.body, JSON.stringify(verdict.body)).to.include({ accepted: true });
    expect(await imagesOf(s.sessionId)).to.equal(1);
    return { ...s, page };
  };

  it('cancels a session not yet submitted, once; its page is gone', async () => {
    const { sessionId, token } = await create();
    const caller = w.client('service');
    const cancelled = await caller.encryptedRequest<SessionView>(
      'POST',
      '/document_share_session/cancel',
      { dvcID: 'kyc-session', sessionId },
    );
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.include({ status: 'CANCELLED', state: 'cancelled' });
    const twice = await caller.encryptedRequest('POST', '/document_share_session/cancel', {
      dvcID: 'kyc-session',
      sessionId,
    });
    expect(twice.status).to.equal(409);
    expect((await fetch(`${w.url}/capture/${token}`)).status).to.equal(410);
    await eventually('the event', () => w.eventsNamed('E_IDV_SESSION_CANCELLED', sessionId)[0]);
    expect(w.eventsNamed('E_IDV_SESSION_CANCELLED', sessionId)[0]!.data).to.deep.include({
      state: 'cancelled',
      from: 'created',
    });
  });

  it('the person declines on the page: declined, its event, DECLINED to the caller; not once submitted', async () => {
    const { sessionId, token } = await create();
    const page = w.page(token);
    await page.get('/session');
    const declined = await page.post<{ state: string }>('/decline');
    expect(declined.status).to.equal(200);
    expect(declined.body).to.include({ state: 'declined' });
    expect((await result(sessionId)).body).to.include({ status: 'DECLINED', state: 'declined' });
    await eventually('the event', () => w.eventsNamed('E_IDV_SESSION_DECLINED', sessionId)[0]);
    expect(w.eventsNamed('E_IDV_SESSION_DECLINED', sessionId)[0]!.data).to.deep.include({
      state: 'declined',
      from: 'opened',
    });
    // the link is done: the page is gone, and so is declining again
    expect((await page.post('/decline')).status).to.equal(410);
    expect((await fetch(`${w.url}/capture/${token}`)).status).to.equal(410);
    // once the captures are sent the person can no longer decline
    const sent = await capturing();
    await sent.page.put('selfie', w.images.selfie, 'image/jpeg');
    expect((await sent.page.post('/submit')).status).to.equal(200);
    expect((await sent.page.post('/decline')).status).to.equal(409);
  });

  it("a cancelled session's images follow the retention: here until the result is read once", async () => {
    const { sessionId } = await capturing();
    const cancelled = await w
      .client('service')
      .encryptedRequest<SessionView>('POST', '/document_share_session/cancel', {
        dvcID: 'kyc-session',
        sessionId,
      });
    expect(cancelled.body.state).to.equal('cancelled');
    // retention ttl -1: kept until the result is read once
    expect(await imagesOf(sessionId)).to.equal(1);
    expect((await result(sessionId)).body.status).to.equal('CANCELLED');
    expect(await imagesOf(sessionId)).to.equal(0);
  });

  it('expires sessions expireSessionInMin (10080) after their creation, busy or left alone', async () => {
    // a marker, due 10 minutes before the others: the sweep that expires it sees them not yet due
    const marker = await create();
    w.clock.advance(10 * MINUTE);
    const fresh = await create();
    const { sessionId, page } = await capturing();
    // the person keeps working (a call every 50 minutes), so only expiry can end it
    for (let passed = 0; passed < 10080 - 50; passed += 50) {
      w.clock.advance(50 * MINUTE);
      expect((await page.get('/status')).body).to.deep.include({ state: 'capturing' });
    }
    w.clock.advance(25 * MINUTE);
    await eventually('the marker expired by a sweep', async () =>
      (await stateOf(marker.sessionId)) === 'expired' ? true : undefined,
    );
    expect(await stateOf(fresh.sessionId), 'not yet due').to.equal('created');
    w.clock.advance(6 * MINUTE);
    for (const id of [fresh.sessionId, sessionId])
      await eventually('expiry', async () =>
        (await stateOf(id)) === 'expired' ? true : undefined,
      );
    await eventually(
      'the events',
      () =>
        (w.eventsNamed('E_IDV_SESSION_EXPIRED', sessionId).length &&
          w.eventsNamed('E_IDV_SESSION_EXPIRED', fresh.sessionId).length) ||
        undefined,
    );
    expect(w.eventsNamed('E_IDV_SESSION_EXPIRED', fresh.sessionId)[0]!.data).to.deep.include({
      state: 'expired',
      from: 'created',
    });
    expect(w.eventsNamed('E_IDV_SESSION_EXPIRED', sessionId)[0]!.data).to.deep.include({
      from: 'capturing',
    });
    expect(w.eventsNamed('E_IDV_SESSION_EXPIRED', sessionId)).to.have.length(1);
    expect((await result(sessionId)).body).to.include({ status: 'EXPIRED' });
    expect(await imagesOf(sessionId)).to.equal(0);
    expect((await fetch(`${w.url}/capture/${fresh.token}`)).status).to.equal(410);
  });

  it('abandons a session abandonSessionInMin (60) after its last activity; activity pushes it', async () => {
    const { sessionId, page } = await capturing();
    // a marker left alone from the start: the sweep that abandons it sees the other not yet due
    const idle = await capturing();
    w.clock.advance(40 * MINUTE);
    expect((await page.get('/status')).body).to.deep.include({ state: 'capturing' });
    w.clock.advance(40 * MINUTE);
    await eventually('the idle marker abandoned by a sweep', async () =>
      (await stateOf(idle.sessionId)) === 'abandoned' ? true : undefined,
    );
    expect(await stateOf(sessionId), '80 minutes in, 40 after the last call').to.equal('capturing');
    w.clock.advance(21 * MINUTE);
    await eventually('abandonment', async () =>
      (await stateOf(sessionId)) === 'abandoned' ? true : undefined,
    );
    await eventually('the event', () => w.eventsNamed('E_IDV_SESSION_ABANDONED', sessionId)[0]);
    expect(w.eventsNamed('E_IDV_SESSION_ABANDONED', sessionId)[0]!.data).to.deep.include({
      state: 'abandoned',
      from: 'capturing',
    });
    expect((await page.get('/session')).status).to.equal(410);
    expect((await page.get('/status')).body).to.deep.include({ state: 'abandoned' });
    expect((await result(sessionId)).body).to.include({ status: 'ABANDONED' });
    expect(await imagesOf(sessionId)).to.equal(0);
  });

  it('applies a due timer on access even before a sweep ran, and never twice', async () => {
    const { sessionId, page } = await capturing();
    w.clock.advance(61 * MINUTE);
    // the page asks at once: the timer applies on the spot (410), one event whoever got there first
    expect((await page.get('/session')).status).to.equal(410);
    await new Promise((resolve) => setTimeout(resolve, SWEEPS_MS));
    expect(w.eventsNamed('E_IDV_SESSION_ABANDONED', sessionId)).to.have.length(1);
    expect(w.eventsNamed('E_IDV_SESSION_EXPIRED', sessionId)).to.have.length(0);
  });
});
