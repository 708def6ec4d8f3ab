// A verification session through the caller API and the capture page API: create, open, consent,
// choose the document, capture front, back and selfie (real PNG/JPEG images), submit; the result
// reads INPROGRESS, then COMPLETED with the certifications a /verify of the same images gives;
// the events of each step; nothing of the person kept after the end (no retention).
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION, type SessionView, type VerifyResult } from '@idv/contracts';
import { verifyMessage } from '@idv/crypto';
import {
  PAGE_HTML,
  PAGE_SCRIPT,
  startSessionWorld,
  eventually,
  type SessionWorld,
} from '@idv/testing/sessionWorld';

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

/** A GET whose answer comes as it was sent (fetch would undo a Content-Encoding). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            headers: res.headers as Record<string, string | undefined>,
            body: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

/** The claims of a certification's proof, once its ES256K signature checked against /publickeys. */
async function proofClaims(w: SessionWorld, proof: string): Promise<Record<string, unknown>> {
  const { publicKey } = (await (await fetch(`${w.url}/publickeys`)).json()) as {
    publicKey: string;
  };
  const [header, payload, signature] = proof.split('.') as [string, string, string];
  const raw = Buffer.from(signature, 'base64url').toString('base64');
  expect(verifyMessage(publicKey, `${header}.${payload}`, raw), 'proof signature').to.equal(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

/** A certification without what differs between two verifications of the same input. */
const comparable = (c: VerifyResult['certifications'][number]) => {
  const { proof: _proof, ...rest } = c;
  return rest;
};

describe('sessions: the whole lifecycle through the caller API and the capture page', function () {
  this.timeout(120_000);
  let w: SessionWorld;
  before(async () => {
    w = await startSessionWorld({ name: 'session-life' });
  });
  after(async () => w?.stop());

  it('creates, captures, submits and completes with the certifications /verify gives', async () => {
    const caller = w.client('service');
    const created = await caller.request<{
      sessionId: string;
      url: string;
      status: string;
      state: string;
      expiresAt: string;
    }>('POST', '/document_share_session/create', {
      data: await caller.encryptJson({
        dvcID: 'kyc-session',
        sessionRequest: {
          tenantDNS: 'bank.example',
          communityName: w.platform.community.name,
          userUID: 'user-testy-1',
          metadata: { branch: 'north' },
        },
      }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ status: 'INPROGRESS', state: 'created' });
    const { sessionId, url } = created.body;
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:8081\/capture\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(url);
    const result = () =>
      caller.encryptedRequest<SessionView>('POST', '/document_share_session/result', {
        dvcID: 'kyc-session',
        sessionId,
      });

    // the page itself, under its headers
    const html = await fetch(`${w.url}/capture/${token}`);
    expect(html.status).to.equal(200);
    expect(await html.text()).to.equal(PAGE_HTML);
    expect(html.headers.get('content-security-policy'))
      .to.contain("script-src 'self'")
      .and.contain("frame-ancestors 'none'")
      .and.not.contain('unsafe-inline');
    expect(html.headers.get('cache-control')).to.equal('no-store');
    expect(html.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(html.headers.get('permissions-policy')).to.equal('camera=(self)');
    const asset = await fetch(`${w.url}/capture/assets/app-1.js`);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('cache-control')).to.contain('immutable');
    // compressed as the browser takes it (the build's copies), the script's own type either way
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const sent = await rawGet(`${w.url}/capture/assets/app-1.js`, { 'accept-encoding': accept });
      expect(sent.headers['content-encoding'] ?? null, accept).to.equal(encoding);
      expect(sent.headers['content-type'], accept).to.match(/javascript/);
      expect(sent.headers.vary, accept).to.match(/Accept-Encoding/i);
      const body =
        encoding === 'br'
          ? brotliDecompressSync(sent.body)
          : encoding === 'gzip'
            ? gunzipSync(sent.body)
            : sent.body;
      expect(body.toString(), accept).to.equal(PAGE_SCRIPT);
    }
    expect(
      (await fetch(`${w.url}/capture/assets/app-1.js.br`)).status,
      'a copy by its own name',
    ).to.equal(404);
    expect((await result()).body.state, 'loading the HTML opens nothing').to.equal('created');

    const page = w.page(token);
    const view = await page.get<Record<string, unknown>>('/session');
    expect(view.status).to.equal(200);
    expect(view.body).to.deep.include({
      state: 'opened',
      journeyType: 'KYC_WITH_FACE_COMPARISON',
      documentType: null,
      documentTypes: ['DL', 'IDCARD', 'PASSPORT'],
      sides: ['selfie'],
      consent: { given: false, textVersion: CONSENT_TEXT_VERSION },
    });
    expect(view.body.settings).to.deep.include({
      retryCount: 1,
      selfieRetryCount: 2,
      selfieCaptureMode: 'auto',
      reviewScreenFront: true,
    });
    expect((await result()).body).to.include({ status: 'INPROGRESS', state: 'opened' });

    expect(
      (await page.put('selfie', w.images.selfie, 'image/jpeg')).status,
      'capture before consent',
    ).to.equal(409);
    expect(
      (await page.post('/consent', { accepted: true, textVersion: 'old-text' })).status,
    ).to.equal(400);
    expect(
      (await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION })).body,
    ).to.deep.equal({ state: 'capturing', redirectUrl: null });
    expect(
      (await page.put('front', w.images.front)).status,
      'front before the document type',
    ).to.equal(409);
    expect((await page.post('/document-type', { documentType: 'DL' })).status).to.equal(200);
    for (const [side, bytes, type] of [
      ['front', w.images.front, 'image/png'],
      ['back', w.images.back, 'image/png'],
      ['selfie', w.images.selfie, 'image/jpeg'],
    ] as const) {
      const verdict = await page.put(side, bytes, type);
      expect(verdict.status, side).to.equal(200);
      expect(verdict.body, side).to.deep.include({ side, accepted: true, problems: [] });
    }
    const submitted = await page.post<{ state: string }>('/submit');
    expect(submitted.status).to.equal(200);
    expect(['submitted', 'processing']).to.include(submitted.body.state);

    const seen: string[] = [];
    const done = await eventually('the session to complete', async () => {
      const res = await result();
      expect(res.status).to.equal(200);
      seen.push(res.body.status);
      return res.body.status === 'INPROGRESS' ? undefined : res.body;
    });
    expect(seen[0]).to.equal('INPROGRESS');
    expect(done).to.include({
      status: 'COMPLETED',
      state: 'completed',
      documentType: 'DL',
      sessionId,
    });
    expect(done.attempts).to.deep.equal({ front: 1, back: 1, selfie: 1 });
    expect(done.metadata).to.deep.equal({ branch: 'north' });
    const sessionResult = done.result as VerifyResult;
    expect(sessionResult.verificationId).to.equal(done.verificationId);
    expect(sessionResult.certifications.map((c) => [c.kind, c.verified])).to.deep.equal([
      ['dl_authenticate', true],
      ['document_liveness', true],
      ['face_compare', true],
      ['face_liveness', true],
    ]);
    for (const c of sessionResult.certifications)
      expect(await proofClaims(w, c.proof)).to.include({
        verificationId: done.verificationId,
        kind: c.kind,
      });

    // the same images through POST /verify give the same certifications
    const b64 = (b: Buffer) => b.toString('base64');
    const direct = await caller.encryptedRequest<VerifyResult>('POST', '/verify', {
      dvcID: 'kyc-session',
      verifications: ['dl_authenticate', 'document_liveness', 'face_compare', 'face_liveness'],
      document: {
        id: sessionId,
        type: 'dl',
        front_image: b64(w.images.front),
        back_image: b64(w.images.back),
        barcode_image: b64(w.images.back),
        image: b64(w.images.front),
        liveId: b64(w.images.selfie),
        image2: b64(w.images.front),
      },
    });
    expect(direct.status).to.equal(200);
    expect(sessionResult.certifications.map(comparable)).to.deep.equal(
      direct.body.certifications.map(comparable),
    );
    expect(sessionResult.status).to.equal(direct.body.status);

    // events of each step, then the result events of the run, without personal data
    const named = (name: string) => w.eventsNamed(name, sessionId);
    await eventually('the completion event', () =>
      named('E_IDV_SESSION_COMPLETED').length > 0 ? true : undefined,
    );
    for (const name of [
      'E_IDV_SESSION_CREATED',
      'E_IDV_SESSION_OPENED',
      'E_IDV_SESSION_SUBMITTED',
      'E_IDV_SESSION_COMPLETED',
    ])
      expect(named(name), name).to.have.length(1);
    expect(named('E_IDV_SESSION_COMPLETED')[0]!.data).to.deep.include({
      dvcID: 'kyc-session',
      state: 'completed',
      verificationId: done.verificationId,
      status: 'verified',
    });
    const runEvents = w.events.filter(
      (e) => (e.data as { verificationId?: string }).verificationId === done.verificationId,
    );
    expect(runEvents.map((e) => e.eventName)).to.include.members([
      'E_IDV_DOCUMENT_VALIDATE',
      'E_IDV_FACE_VALIDATE',
    ]);
    expect(JSON.stringify(w.events)).not.to.contain('user-testy-1').and.not.to.contain('Testy');

    // no retention: the images went with the end, the result with its first read
    const db = w.platform.database.db;
    expect(await db('docverify.session_images').where({ session_id: sessionId })).to.have.length(0);
    const row = await db('docverify.sessions').where({ id: sessionId }).first();
    expect(row.request_sealed).to.equal(null);
    const again = await result();
    expect(again.body).to.include({ status: 'COMPLETED' }).and.not.to.have.property('result');

    // the page now shows its final screen
    expect((await page.get('/status')).body).to.deep.equal({
      state: 'completed',
      redirectUrl: null,
    });
    const ended = await fetch(`${w.url}/capture/${token}`);
    expect(ended.status).to.equal(410);
    expect(await ended.json()).to.include({ statusCode: 410, error: 'Gone' });
    // a browser gets the page itself, which shows its screen for the ended session
    const browser = await fetch(`${w.url}/capture/${token}`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(browser.status).to.equal(410);
    expect(await browser.text()).to.equal(PAGE_HTML);
    expect(browser.headers.get('content-security-policy')).to.contain("default-src 'none'");
    const gone = await page.get('/session');
    expect(gone.status).to.equal(410);
    expect(gone.body).to.deep.include({
      statusCode: 410,
      error: 'Gone',
      details: { state: 'completed' },
    });
  });
});
