// Bad input everywhere a session is touched: each gets its clear 4xx with the error body (never a
// 500 or a hang), and nothing already captured is lost.
import { expect } from 'chai';
import http from 'node:http';
import { CONSENT_TEXT_VERSION, type SessionView } from '@idv/contracts';
import {
  blurred,
  documentImage,
  hugePngHeader,
  jpeg,
  lit,
  png,
  selfieImage,
} from '@idv/samples/captureImages';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';
import { licenceBack } from '@idv/samples/idDocuments';
import { RateLimitStore } from '@idv/platform';

/**
 * Time for the held upload to be admitted (its headers read, its place taken). A fixed wait is the
 * only way: admission shows nowhere outside, and probing it with another upload would take the
 * place first, or count as an attempt.
 */
const HELD_UPLOAD_ADMITTED_MS = 500;
/**
 * Time for the gateway's view of a budget to go stale (two syncs of RATE_LIMIT_SYNC_MS, 100 ms),
 * so that its next upload reads the limit an operator just changed: the change shows nowhere
 * outside until a request meets it, and that request would already count.
 */
const BUDGET_VIEW_STALE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const isErrorBody = (body: unknown, status: number) =>
  expect(body)
    .to.include({ statusCode: status })
    .and.to.have.property('message')
    .that.is.a('string');

describe('sessions: bad input gets a clear 4xx', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  before(async () => {
    w = await startSessionWorld({
      name: 'session-bad',
      platform: { SESSION_IMAGE_MAX_BYTES: String(1024 * 1024) },
    });
  });
  after(async () => w?.stop());

  const create = async (sessionRequest: Record<string, unknown> = {}, dvcID = 'kyc-session') => {
    const caller = w.client('service');
    return caller.request<{ sessionId: string; url: string }>(
      'POST',
      '/document_share_session/create',
      {
        data: await caller.encryptJson({ dvcID, sessionRequest }),
      },
    );
  };
  const capturing = async (documentType = 'DL') => {
    const res = await create({ documentType });
    const page = w.page(tokenOf(res.body.url));
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    return { sessionId: res.body.sessionId, page };
  };

  it('create: unknown config 404, a journey the config cannot run 400 naming it, a bad body 400', async () => {
    expect((await create({}, 'no-such-config')).status).to.equal(404);
    const admin = w.client('service');
    const c = w.platform.community;
    await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'docs-only',
      dl_authenticate: [{ verifier: 'review' }],
    });
    const face = await create({}, 'docs-only');
    expect(face.status).to.equal(400);
    expect(JSON.stringify(face.body))
      .to.contain('/sessionRequest/journeyType')
      .and.contain('face_compare');
    const passport = await create(
      { journeyType: 'DOCUMENT_VERIFICATION_ONLY', documentType: 'PASSPORT' },
      'docs-only',
    );
    expect(passport.status).to.equal(400);
    expect(JSON.stringify(passport.body)).to.contain('/sessionRequest/documentType');
    expect(
      (await create({ journeyType: 'DOCUMENT_VERIFICATION_ONLY', documentType: 'DL' }, 'docs-only'))
        .status,
    ).to.equal(200);
    for (const bad of [
      { redirectUrl: 'http://bank.example/done' },
      { redirectUrl: 'javascript:alert(1)' },
      { documentType: 'VISA' },
      { userUID: 'x'.repeat(201) },
      { metadata: { nested: { no: 1 } } },
      { locale: 'english' },
      { extra: true },
    ]) {
      const res = await create(bad);
      expect(res.status, JSON.stringify(bad)).to.equal(400);
      isErrorBody(res.body, 400);
    }
    const caller = w.client('service');
    const plain = await caller.request('POST', '/document_share_session/create', {
      dvcID: 'kyc-session',
      sessionRequest: {},
    });
    expect(plain.status).to.equal(400);
    const undecryptable = await caller.request('POST', '/document_share_session/create', {
      data: 'bm90IGVuY3J5cHRlZA==',
    });
    expect(undecryptable.status).to.equal(400);
    const community = w.client('community');
    expect(
      (
        await community.request('POST', '/document_share_session/create', {
          data: await community.encryptJson({ dvcID: 'kyc-session', sessionRequest: {} }),
        })
      ).status,
      'any valid licence of the community',
    ).to.equal(200);
  });

  it('result and cancel: another community, another config, an unknown or malformed id: 404', async () => {
    const { body } = await create();
    const ask = (
      licence: 'service' | 'serviceElsewhere' | 'system',
      ref: Record<string, unknown>,
      path = 'result',
    ) =>
      w
        .client(licence)
        .encryptedRequest<SessionView>('POST', `/document_share_session/${path}`, ref);
    expect(
      (await ask('service', { dvcID: 'kyc-session', sessionId: body.sessionId })).status,
    ).to.equal(200);
    expect(
      (await ask('system', { dvcID: 'kyc-session', sessionId: body.sessionId })).status,
    ).to.equal(200);
    expect(
      (await ask('serviceElsewhere', { dvcID: 'kyc-session', sessionId: body.sessionId })).status,
    ).to.equal(404);
    expect(
      (await ask('serviceElsewhere', { dvcID: 'kyc-session', sessionId: body.sessionId }, 'cancel'))
        .status,
    ).to.equal(404);
    expect(
      (await ask('service', { dvcID: 'docs-only', sessionId: body.sessionId })).status,
    ).to.equal(404);
    expect(
      (
        await ask('service', {
          dvcID: 'kyc-session',
          sessionId: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
    ).to.equal(404);
    expect(
      (await ask('service', { dvcID: 'kyc-session', sessionId: 'not-a-uuid' })).status,
    ).to.equal(404);
    expect((await ask('service', { dvcID: 'kyc-session' })).status).to.equal(400);
  });

  it('refuses a replayed request (the same requestid twice): 401', async () => {
    const caller = w.client('service');
    const headers = { ...(await caller.headers()), 'content-type': 'application/json' };
    const body = JSON.stringify({
      data: await caller.encryptJson({ dvcID: 'kyc-session', sessionRequest: {} }),
    });
    const first = await fetch(`${w.url}/document_share_session/create`, {
      method: 'POST',
      headers,
      body,
    });
    expect(first.status).to.equal(200);
    const replay = await fetch(`${w.url}/document_share_session/create`, {
      method: 'POST',
      headers,
      body,
    });
    expect(replay.status).to.equal(401);
  });

  it('page and page API: unknown token 404, no or malformed bearer 401, an unknown side 404', async () => {
    const unknown = 'A'.repeat(43);
    expect((await fetch(`${w.url}/capture/${unknown}`)).status).to.equal(404);
    expect((await fetch(`${w.url}/capture/short`)).status).to.equal(404);
    for (const path of ['/session', '/status']) {
      const res = await w.page(unknown).get(path);
      expect(res.status, path).to.equal(404);
      isErrorBody(res.body, 404);
    }
    expect((await fetch(`${w.url}/capture-api/session`)).status).to.equal(401);
    expect(
      (await fetch(`${w.url}/capture-api/session`, { headers: { authorization: 'Basic abc' } }))
        .status,
    ).to.equal(401);
    const { page } = await capturing();
    expect((await page.put('left', w.images.front)).status).to.equal(404);
    expect((await fetch(`${w.url}/capture/assets/..%2Findex.html`)).status).to.equal(404);
    expect((await fetch(`${w.url}/capture/assets/.hidden`)).status).to.equal(404);
  });

  it('uploads: 415 other media types, 413 over the limit, 409 a side not in the journey, 400 no body', async () => {
    const { page } = await capturing('DL');
    const text = await page.put('front', Buffer.from('hello'), 'text/plain');
    expect(text.status).to.equal(415);
    isErrorBody(text.body, 415);
    const big = await page.put('front', Buffer.alloc(1100 * 1024, 1), 'image/png');
    expect(big.status).to.equal(413);
    isErrorBody(big.body, 413);
    const passport = await page.put('passport', w.images.passport, 'image/jpeg');
    expect(passport.status).to.equal(409);
    expect((passport.body as { message: string }).message).to.contain('not part of this journey');
    expect((await page.put('front', Buffer.alloc(0), 'image/png')).status).to.equal(400);
    // none of these counted as an attempt
    expect(
      (await page.get<{ attempts: Record<string, number> }>('/session')).body.attempts,
    ).to.deep.equal({});
  });

  /**
   * A PUT of `total` bytes written as fast as the gateway reads them; writing stops when the answer
   * arrives, and with `hold` the request stays open after the bytes until aborted.
   */
  const rawUpload = (
    token: string,
    total: number,
    opts: { contentLength?: number; hold?: boolean } = {},
  ) => {
    let sent = 0;
    const req = http.request(`${w.url}/capture-api/images/front`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'image/png',
        ...(opts.contentLength ? { 'content-length': String(opts.contentLength) } : {}),
      },
    });
    req.on('error', () => {}); // the gateway closes a refused upload's connection
    const response = new Promise<{
      status: number;
      retryAfter: string | undefined;
      body: unknown;
      sentBefore: number;
    }>((resolve, reject) => {
      req.on('response', (res) => {
        const sentBefore = sent;
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'],
            body: JSON.parse(text) as unknown,
            sentBefore,
          }),
        );
      });
    });
    let answered = false;
    void response.finally(() => (answered = true));
    void (async () => {
      const chunk = Buffer.alloc(64 * 1024, 7);
      while (!answered && !req.destroyed && sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n)))
          await Promise.race([new Promise((r) => req.once('drain', r)), response.catch(() => {})]);
      }
      if (!answered && !opts.hold) req.end();
    })();
    return { response, abort: () => req.destroy() };
  };

  it('uploads: an unknown token is refused before its body is read; one upload per session at a time (429), released on abort', async () => {
    // 20 MB with no length (the 413 on Content-Length does not apply): answered 404 while the client is still sending
    const unknown = await rawUpload('A'.repeat(43), 20 * 1024 * 1024).response;
    console.log(
      `      unknown token: ${unknown.status} after ${Math.round(unknown.sentBefore / 1024)} KB of 20 MB`,
    );
    expect(unknown.status).to.equal(404);
    isErrorBody(unknown.body, 404);
    // what was sent sits in the loopback's socket buffers (a few MB), not in the gateway
    expect(unknown.sentBefore).to.be.below(10 * 1024 * 1024);
    const { page } = await capturing('DL');
    const token = tokenOf((await page.get<{ handoffUrl: string }>('/session')).body.handoffUrl);
    // an upload of the session held open, its body half sent
    const held = rawUpload(token, 1000, { contentLength: 900 * 1024, hold: true });
    await new Promise((r) => setTimeout(r, HELD_UPLOAD_ADMITTED_MS));
    const second = await page.put('front', w.images.front);
    expect(second.status).to.equal(429);
    isErrorBody(second.body, 429);
    expect((second.body as { message: string }).message).to.contain(
      'another photo of this session is being uploaded',
    );
    const withHeader = await rawUpload(token, 10).response;
    expect(withHeader.status).to.equal(429);
    expect(Number(withHeader.retryAfter)).to.be.at.least(1);
    held.abort();
    // the aborted upload released its place: the next one is read and checked
    const next = await eventually(
      'an upload let in after the abort',
      async () => {
        const res = await page.put('front', w.images.front);
        return res.status === 429 ? undefined : res;
      },
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    expect(next.status).to.equal(200);
    expect((next.body as { accepted: boolean }).accepted).to.equal(true);
    // none of the refused uploads counted as an attempt
    expect(
      (await page.get<{ attempts: Record<string, number> }>('/session')).body.attempts,
    ).to.deep.equal({ front: 1 });
  });

  it('checks each capture, counts it, refuses retakes beyond retryCount and keeps what passed', async () => {
    // retryCount 1: two captures of a document side; selfieRetryCount 2: three selfies
    const { sessionId, page } = await capturing('DL');
    const bytes = await png(await licenceBack(), 'DOC:testy');
    const verdicts = [
      ['front', Buffer.from('not an image at all'), 'image/png', ['not_an_image']],
      ['front', await png(documentImage(320, 200)), 'image/png', ['too_small']],
      ['back', await png(blurred(documentImage(), 6)), 'image/png', ['blurred']],
      ['back', bytes, 'image/png', []],
      // so dark that its edges are gone too
      ['selfie', await png(lit(selfieImage(), 0.15)), 'image/png', ['too_dark', 'blurred']],
      ['selfie', await png(lit(selfieImage(), 3)), 'image/png', ['too_bright']],
      ['selfie', hugePngHeader(20_000, 20_000), 'image/png', ['not_an_image']],
    ] as const;
    const left: number[] = [];
    for (const [side, image, type, problems] of verdicts) {
      const res = await page.put<{
        accepted: boolean;
        problems: { code: string; message: string }[];
        attemptsLeft: number;
      }>(side, image, type);
      expect(res.status, `${side} ${problems.join()}`).to.equal(200);
      expect(res.body.accepted, `${side} ${problems.join()}`).to.equal(problems.length === 0);
      expect(
        res.body.problems.map((p) => p.code),
        side,
      ).to.deep.equal(problems);
      for (const p of res.body.problems) expect(p.message).to.be.a('string').with.length.above(10);
      left.push(res.body.attemptsLeft);
    }
    expect(left).to.deep.equal([1, 0, 1, 0, 2, 1, 0]);
    // front and selfie are out of retakes; back passed and stays; a retake of back is refused too
    for (const [side, image] of [
      ['front', bytes],
      ['selfie', bytes],
      ['back', bytes],
    ] as const) {
      const res = await page.put(side, image);
      expect(res.status, side).to.equal(409);
      expect((res.body as { message: string }).message).to.contain('no retakes');
    }
    const view = await page.get<{
      accepted: Record<string, boolean>;
      attempts: Record<string, number>;
    }>('/session');
    expect(view.body.accepted).to.deep.equal({ front: false, back: true, selfie: false });
    expect(view.body.attempts).to.deep.equal({ front: 2, back: 2, selfie: 3 });
    const kept = await w.platform.database
      .db('docverify.session_images')
      .where({ session_id: sessionId });
    expect(kept.map((r: { side: string }) => r.side)).to.deep.equal(['back']);
    // submitted with sides that never passed: the run fails the session, naming why
    expect((await page.post('/submit')).status).to.equal(200);
    const caller = w.client('service');
    const ended = await eventually('the session to end', async () => {
      const res = await caller.encryptedRequest<SessionView>(
        'POST',
        '/document_share_session/result',
        { dvcID: 'kyc-session', sessionId },
      );
      return res.body.status === 'INPROGRESS' ? undefined : res.body;
    });
    expect(ended).to.include({ status: 'FAILED', failure: 'capture_incomplete' });
  });

  it('one side out of retakes unaccepted: the session may be submitted at once, and fails capture_incomplete', async () => {
    const { sessionId, page } = await capturing('DL');
    const junk = Buffer.from('not an image at all');
    // back and selfie untouched: before the front runs out, submit still asks for every side
    expect((await page.put('front', junk)).status).to.equal(200);
    const early = await page.post('/submit');
    expect(early.status).to.equal(409);
    expect((early.body as { message: string }).message).to.contain('front, back, selfie');
    const last = await page.put<{ attemptsLeft: number }>('front', junk);
    expect(last.body.attemptsLeft).to.equal(0);
    // the session is sure to fail: the page ends the journey here, the back and selfie never asked
    expect((await page.post('/submit')).status).to.equal(200);
    const caller = w.client('service');
    const ended = await eventually('the session to end', async () => {
      const res = await caller.encryptedRequest<SessionView>(
        'POST',
        '/document_share_session/result',
        { dvcID: 'kyc-session', sessionId },
      );
      return res.body.status === 'INPROGRESS' ? undefined : res.body;
    });
    expect(ended).to.include({ status: 'FAILED', failure: 'capture_incomplete' });
  });

  it("an upload past its community's image budget is check_unavailable: not kept, no retake spent", async () => {
    const limits = new RateLimitStore(w.platform.database.db);
    const budget = { scope: 'images' as const, id: w.platform.community.id };
    // one megabyte at once, hardly any refill: the first photo (a few MB) takes the full budget
    await limits.set(budget, { rps: 0.001, burst: 1 });
    try {
      await sleep(BUDGET_VIEW_STALE_MS);
      const { sessionId, page } = await capturing('DL');
      type Verdict = {
        accepted: boolean;
        problems: { code: string; message: string }[];
        attemptsLeft: number;
      };
      const front = await page.put<Verdict>('front', w.images.front);
      expect(front.body).to.include({ accepted: true, attemptsLeft: 1 });
      const back = await page.put<Verdict>('back', w.images.back);
      expect(back.status).to.equal(200);
      expect(back.body).to.include({ accepted: false, attemptsLeft: 2 });
      expect(back.body.problems.map((p) => p.code)).to.deep.equal(['check_unavailable']);
      expect(back.body.problems[0]!.message).to.contain(
        `image budget of community ${w.platform.community.id} is spent`,
      );
      const kept = await w.platform.database
        .db('docverify.session_images')
        .where({ session_id: sessionId });
      expect(kept.map((r: { side: string }) => r.side)).to.deep.equal(['front']);
      // back to the default budget: the same photo is checked and kept
      await limits.unset(budget);
      await sleep(BUDGET_VIEW_STALE_MS);
      const again = await page.put<Verdict>('back', w.images.back);
      expect(again.body).to.include({ accepted: true, attemptsLeft: 1 });
    } finally {
      await limits.unset(budget);
    }
  });

  it("a config's branding: a logo that is what it says, small and at most 1024 px a side, https links", async () => {
    const admin = w.client('service');
    const c = w.platform.community;
    const put = (branding: Record<string, unknown>) =>
      admin.request<{ message: string }>('PUT', `/verificationConfig/community/${c.id}`, {
        tenantId: c.tenantId,
        tag: `branded-${Math.random().toString(36).slice(2, 8)}`,
        face_compare: [{ verifier: 'faces' }],
        settings: { branding },
      });
    const dataUrl = (type: string, bytes: Buffer) =>
      `data:image/${type};base64,${bytes.toString('base64')}`;
    const logo = await png(documentImage(64, 32));
    expect((await put({ name: 'Testy Bank', logo: dataUrl('png', logo) })).status).to.equal(200);
    for (const [branding, says] of [
      [{ name: 'Testy Bank', logo: dataUrl('webp', logo) }, 'not what its data URL says'],
      [{ name: 'Testy Bank', logo: dataUrl('png', hugePngHeader(4000, 4000)) }, 'at most 1024 px'],
      [
        { name: 'Testy Bank', logo: dataUrl('png', Buffer.from('not an image at all')) },
        'image that can be read',
      ],
      [
        { name: 'Testy Bank', logo: dataUrl('jpeg', await jpeg(documentImage(64, 32))) },
        'settings/branding/logo',
      ],
      [
        { name: 'Testy Bank', privacyPolicyUrl: 'http://bank.example/privacy' },
        'settings/branding/privacyPolicyUrl',
      ],
      [{ name: 'Testy Bank', primaryColor: 'red' }, 'settings/branding/primaryColor'],
      [{ logo: dataUrl('png', logo) }, 'name'],
    ] as const) {
      const res = await put(branding);
      expect(res.status, says).to.equal(400);
      expect(JSON.stringify(res.body), says).to.contain(says);
    }
  });

  it('page steps out of order: 409 with what to do; a fixed document type cannot change', async () => {
    const res = await create({ documentType: 'DL' });
    const page = w.page(tokenOf(res.body.url));
    expect((await page.post('/submit')).status, 'submit before consent').to.equal(409);
    expect(
      (await page.post('/consent', { accepted: false, textVersion: CONSENT_TEXT_VERSION })).status,
    ).to.equal(400);
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    expect(
      (await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION })).status,
      'consent twice',
    ).to.equal(200);
    const change = await page.post('/document-type', { documentType: 'PASSPORT' });
    expect(change.status).to.equal(409);
    expect((await page.post('/document-type', { documentType: 'VISA' })).status).to.equal(400);
    const early = await page.post('/submit');
    expect(early.status).to.equal(409);
    expect((early.body as { message: string }).message).to.contain('front, back, selfie');
  });
});
