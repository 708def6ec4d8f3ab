// The content checks through the capture API (PUT /capture-api/images/{side}) of a real platform:
// a licence back must carry a PDF417 that decodes, a passport page an MRZ whose check digits hold,
// a selfie and the face journey's licence front a face; and a check that cannot run (out of time,
// or another photo of the session being checked) never accepts the image: the verdict is
// check_unavailable, nothing is stored and no retake is spent.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import { documentImage, jpeg, landscapeImage, png, selfieImage } from '@idv/samples/captureImages';
import {
  licenceBack,
  licenceFront,
  licenceFrontWithoutPortrait,
  passportPage,
  TESTY_MRZ,
} from '@idv/samples/idDocuments';
import { brighter, cutOffSelfie, realSelfie, samplePhoto } from '@idv/samples/realFaces';
import {
  eventually,
  startSessionWorld,
  type PageClient,
  type SessionWorld,
} from '@idv/testing/sessionWorld';

interface Verdict {
  accepted: boolean;
  problems: { code: string; message: string }[];
  attemptsLeft: number;
}

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

/** Opens a session's page in `w`, consent given, ready to capture `documentType`. */
async function capturing(w: SessionWorld, documentType: string, journeyType?: string) {
  const caller = w.client('service');
  const sessionRequest = { documentType, ...(journeyType ? { journeyType } : {}) };
  const res = await caller.request<{ sessionId: string; url: string }>(
    'POST',
    '/document_share_session/create',
    {
      data: await caller.encryptJson({ dvcID: 'kyc-session', sessionRequest }),
    },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const page = w.page(tokenOf(res.body.url));
  await page.get('/session');
  await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
  const put = async (side: string, bytes: Buffer, type = 'image/png') => {
    const reply = await page.put<Verdict>(side, bytes, type);
    expect(reply.status, `${side}: ${JSON.stringify(reply.body)}`).to.equal(200);
    return reply.body;
  };
  return { sessionId: res.body.sessionId, page, put };
}

const codes = (verdict: Verdict) => verdict.problems.map((p) => p.code);

async function qualityOf(w: SessionWorld, sessionId: string, side: string) {
  const [row] = (await w.platform.database
    .db('docverify.session_images')
    .where({ session_id: sessionId, side })) as { quality: Record<string, number> | string }[];
  if (!row) return undefined;
  return typeof row.quality === 'string'
    ? (JSON.parse(row.quality) as Record<string, number>)
    : row.quality;
}

describe('sessions: content checks of captured images', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  before(async () => {
    // generous limits: what the checks say must not depend on how busy the cores are
    const limits = { CAPTURE_MRZ_CHECK_MS: '60000', CAPTURE_CONTENT_CHECK_MS: '60000' };
    w = await startSessionWorld({
      name: 'session-content',
      platform: limits,
      settings: { retryCount: 3, selfieRetryCount: 4 },
    });
  });
  after(async () => w?.stop());

  it('a licence back without a barcode is barcode_unreadable; its PDF417 back is accepted', async () => {
    const { sessionId, put } = await capturing(w, 'DL');
    const plain = await put('back', await png(documentImage(1000, 630, 13), 'DOC:testy'));
    expect(plain).to.deep.include({ accepted: false, attemptsLeft: 3 });
    expect(codes(plain)).to.deep.equal(['barcode_unreadable']);
    expect(plain.problems[0]!.message).to.match(/barcode/);
    expect(await qualityOf(w, sessionId, 'back')).to.equal(undefined);
    const good = await put('back', await jpeg(await licenceBack(), 'DOC:testy'), 'image/jpeg');
    expect(good).to.deep.include({ accepted: true, problems: [] });
    expect(await qualityOf(w, sessionId, 'back')).to.include({ barcodeRead: 1 });
  });

  it('an ID card back needs its barcode too', async () => {
    const { put } = await capturing(w, 'IDCARD');
    expect(codes(await put('back', await png(documentImage(1000, 630, 21))))).to.deep.equal([
      'barcode_unreadable',
    ]);
    expect((await put('back', await png(await licenceBack()))).accepted).to.equal(true);
  });

  it('a passport page without an MRZ, or with a check digit off, is mrz_unreadable; a valid one is accepted', async () => {
    const { sessionId, put } = await capturing(w, 'PASSPORT');
    // a page of "text" without MRZ nor portrait: both named
    const none = await put('passport', await jpeg(documentImage(1000, 700, 17)), 'image/jpeg');
    expect(codes(none)).to.deep.equal(['mrz_unreadable', 'no_face']);
    const tampered = [TESTY_MRZ[0]!, TESTY_MRZ[1]!.replace('X532748613', 'X532748614')];
    const garbled = await put('passport', await jpeg(await passportPage(tampered)), 'image/jpeg');
    expect(codes(garbled)).to.deep.equal(['mrz_unreadable']);
    expect(garbled.problems[0]!.message).to.contain('check digits');
    const good = await put('passport', await jpeg(await passportPage(), 'DOC:testy'), 'image/jpeg');
    expect(good).to.deep.include({ accepted: true, problems: [], attemptsLeft: 1 });
    expect(await qualityOf(w, sessionId, 'passport')).to.include({ mrzRead: 1 });
  });

  it('a selfie of an empty room or a landscape is no_face; the generated face is accepted', async () => {
    const { sessionId, put } = await capturing(w, 'DL');
    expect(
      codes(await put('selfie', await jpeg(selfieImage(480, 640, 11, false)), 'image/jpeg')),
    ).to.deep.equal(['no_face']);
    expect(codes(await put('selfie', await png(landscapeImage())))).to.deep.equal(['no_face']);
    expect(codes(await put('selfie', await png(await licenceBack())))).to.deep.equal(['no_face']);
    const face = await put('selfie', await jpeg(selfieImage(), 'FACE:testy'), 'image/jpeg');
    expect(face).to.deep.include({ accepted: true, problems: [], attemptsLeft: 1 });
    expect(await qualityOf(w, sessionId, 'selfie')).to.include({ faceCount: 1 });
  });

  it('a selfie with two people is multiple_faces, a face cut off is face_cut_off; a real face is accepted', async () => {
    const { sessionId, put } = await capturing(w, 'DL');
    const group = await put(
      'selfie',
      await jpeg(brighter(await samplePhoto(1), 1.4)),
      'image/jpeg',
    );
    expect(codes(group)).to.deep.equal(['multiple_faces']);
    expect(group.problems[0]!.message).to.contain('3 faces');
    expect(
      codes(await put('selfie', await jpeg(await cutOffSelfie()), 'image/jpeg')),
    ).to.deep.equal(['face_cut_off']);
    const real = await put('selfie', await jpeg(await realSelfie(0), 'FACE:testy'), 'image/jpeg');
    expect(real).to.deep.include({ accepted: true, problems: [] });
    const quality = await qualityOf(w, sessionId, 'selfie');
    expect(quality).to.include({ faceCount: 1 }).and.to.have.property('faceMs').above(0);
    expect(quality?.faceScore).to.be.above(0.9);
  });

  it('the face journey wants a portrait on the licence front; a document-only journey does not', async () => {
    const face = await capturing(w, 'DL');
    const cut = await face.put('front', await png(licenceFrontWithoutPortrait()));
    expect(codes(cut)).to.deep.equal(['no_face']);
    expect(cut.problems[0]!.message).to.contain('portrait');
    expect(
      (await face.put('front', await png(licenceFront(), 'DOC:testy', 'FACE:testy'))).accepted,
    ).to.equal(true);
    const docs = await capturing(w, 'DL', 'DOCUMENT_VERIFICATION_ONLY');
    expect((await docs.put('front', await png(licenceFrontWithoutPortrait()))).accepted).to.equal(
      true,
    );
  });

  it('the whole face journey goes through with the checked images and completes', async () => {
    const { sessionId, page, put } = await capturing(w, 'PASSPORT');
    expect((await put('passport', w.images.passport, 'image/jpeg')).accepted).to.equal(true);
    expect((await put('selfie', w.images.selfie, 'image/jpeg')).accepted).to.equal(true);
    expect((await page.post('/submit')).status).to.equal(200);
    const caller = w.client('service');
    const done = await eventually('the session to complete', async () => {
      const res = await caller.encryptedRequest<{ status: string }>(
        'POST',
        '/document_share_session/result',
        { dvcID: 'kyc-session', sessionId },
      );
      return res.body.status === 'COMPLETED' ? res.body : undefined;
    });
    expect(done).to.include({ status: 'COMPLETED', state: 'completed', documentType: 'PASSPORT' });
  });
});

describe('sessions: a check that did not run never accepts the capture', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  before(async () => {
    // no worker thread answers within 1 ms, no OCR engine starts within 100 ms
    w = await startSessionWorld({
      name: 'session-slowcheck',
      platform: { CAPTURE_MRZ_CHECK_MS: '100', CAPTURE_CONTENT_CHECK_MS: '1' },
    });
  });
  after(async () => w?.stop());

  /** The verdict of a check that did not run: not accepted, not stored, no retake spent. */
  async function unchecked(page: PageClient, sessionId: string, side: string, verdict: Verdict) {
    const { body } = await page.get<{
      settings: { retryCount: number; selfieRetryCount: number };
      attempts: Record<string, number>;
    }>('/session');
    const allowed =
      1 + (side === 'selfie' ? body.settings.selfieRetryCount : body.settings.retryCount);
    expect(verdict).to.deep.include({ accepted: false, attemptsLeft: allowed });
    expect(codes(verdict)).to.deep.equal(['check_unavailable']);
    expect(body.attempts[side] ?? 0).to.equal(0);
    expect(await qualityOf(w, sessionId, side)).to.equal(undefined);
  }

  it('a passport page whose MRZ check overruns is check_unavailable: not kept, no retake spent', async () => {
    const { sessionId, page, put } = await capturing(w, 'PASSPORT');
    const verdict = await put('passport', await jpeg(documentImage(1000, 700, 17)), 'image/jpeg');
    await unchecked(page, sessionId, 'passport', verdict);
  });

  it('blank images whose barcode or face check overruns are never accepted (back, selfie)', async () => {
    const { sessionId, page, put } = await capturing(w, 'DL');
    await unchecked(
      page,
      sessionId,
      'back',
      await put('back', await png(documentImage(1000, 630, 13))),
    );
    await unchecked(page, sessionId, 'selfie', await put('selfie', await png(landscapeImage())));
    expect((await page.post('/submit')).status).to.equal(409);
  });
});

/** Waits until the gateway at `url` has `count` capture checks sent to the workers (its metric). */
async function checksInFlight(url: string, count: number): Promise<void> {
  const line = new RegExp(`^docverify_capture_checks_in_flight(\\{[^}]*\\})? ${count}$`, 'm');
  await eventually(
    `${count} capture checks in flight`,
    async () => line.test(await (await fetch(`${url}/metrics`)).text()),
    30_000,
  );
}

describe('sessions: one check per session at a time', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  before(async () => {
    const limits = { CAPTURE_MRZ_CHECK_MS: '60000', CAPTURE_CONTENT_CHECK_MS: '60000' };
    w = await startSessionWorld({ name: 'session-onecheck', platform: limits });
  });
  after(async () => w?.stop());

  it('a second upload while the first is checked answers check_unavailable at once, no retake spent', async () => {
    const { page, put } = await capturing(w, 'DL');
    const large = await png(documentImage(4000, 2600, 5));
    const first = put('back', large);
    await checksInFlight(w.url, 1); // the first is with the capture checker
    const second = await put('back', await png(documentImage(1000, 630, 13)));
    expect(codes(second)).to.deep.equal(['check_unavailable']);
    expect(second.problems[0]!.message).to.contain('another photo of this session');
    const firstVerdict = await first;
    expect(codes(firstVerdict)).to.deep.equal(['barcode_unreadable']);
    const { body } = await page.get<{ attempts: Record<string, number> }>('/session');
    expect(body.attempts.back).to.equal(1);
  });
});
