// The built capture page in headless Chromium against the real gateway of a session world: the
// upload journey to a completed session with the certifications /verify gives, the fake-camera
// journey, the desktop-to-phone handoff, and bad input (unknown and ended links, a file that is
// no image, an oversize photo, retakes beyond the limit); no CSP violation on any screen.
// Screenshots: test-artifacts/capture/<journey>/<nn>-<step>-<phone|desktop>.png.
import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import type { VerifyResult } from '@idv/contracts';
import { readBarcode } from '@idv/docread';
import { Jimp } from 'jimp';
import type { Browser, Page } from 'playwright-core';
import { blurred, documentImage, jpeg, png } from '@idv/samples/captureImages';
import {
  ARTIFACTS,
  builtPage,
  facelessCameraVideo,
  fakeCameraVideo,
  launchBrowser,
  openJourney,
  type Journey,
} from '@idv/testing/captureBrowser';
import { brighter, cutOffSelfie, realSelfie, samplePhoto } from '@idv/samples/realFaces';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const REDIRECT = 'https://rp.example.test/done';
/** the test images and a camera frame fit; a photo of noise does not, even at 800 px and q 0.5 */
const MAX_IMAGE_BYTES = 192 * 1024;

const heading = (page: Page) => page.locator('h1');
/** The selfie camera's face detector: its chunk, its weights and its WebAssembly. */
const isDetectorFile = (url: string) =>
  /\/capture\/assets\/(detector-|tiny_face_detector_model|tfjs-backend-wasm)/.test(url);
const screen = (page: Page, name: string) =>
  page.locator(`main[data-screen="${name}"]`).waitFor({ timeout: 15_000 });

/**
 * A PNG of colour noise at the page's smallest size (800 px, never scaled: scaling would smooth
 * the noise): 2.5 MB that no JPEG squeezes under MAX_IMAGE_BYTES (about 240 kB at quality 0.5).
 */
function noisePng(width = 800, height = 800): Promise<Buffer> {
  const image = documentImage(width, height, 5);
  const { data } = image.bitmap;
  let state = 12345;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    if (i % 4 !== 3) data[i] = state >>> 24;
  }
  return png(image);
}

describe('capture page in a browser (built page, real gateway)', function () {
  this.timeout(120_000);
  let w: SessionWorld;
  let browser: Browser;
  const journeys: Journey[] = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const dir = builtPage();
    w = await startSessionWorld({
      name: 'capture-browser',
      platform: { CAPTURE_PAGE_DIR: dir, SESSION_IMAGE_MAX_BYTES: String(MAX_IMAGE_BYTES) },
    });
    browser = await launchBrowser(await fakeCameraVideo(`${ARTIFACTS}/fake-camera.y4m`));
  });
  after(async () => {
    await browser?.close();
    await w?.stop();
  });
  afterEach(async () => {
    for (const j of journeys.splice(0)) {
      expect(j.problems, 'CSP violations, page errors, layout faults').to.deep.equal([]);
      await j.close();
    }
  });

  const caller = () => w.client('service');
  async function newSession(request: Record<string, unknown> = {}) {
    const created = await caller().createSession('kyc-session', {
      communityName: w.platform.community.name,
      userUID: 'user-testy-browser',
      ...request,
    });
    const token = new URL(created.url).pathname.split('/').at(-1)!;
    return { ...created, token, pageUrl: `${w.url}/capture/${token}` };
  }
  async function journey(name: string, device: 'phone' | 'desktop' = 'phone') {
    const j = await openJourney(browser, name, device);
    journeys.push(j);
    return j;
  }
  /** consent and the choice of a driving licence, as the person does it */
  async function consentAndLicence(j: Journey, shots: boolean) {
    await screen(j.page, 'consent');
    expect(await heading(j.page).textContent()).to.equal('Before you start');
    // the heading takes the focus once the screen has rendered (an effect after the paint)
    await eventually('the heading focused', async () =>
      (await j.page.evaluate('document.activeElement?.tagName')) === 'H1' ? true : undefined,
    );
    if (shots) await j.shot('consent');
    await j.page.getByLabel('I have read and agree to this').check();
    await j.page.getByRole('button', { name: 'I agree, continue' }).click();
    await screen(j.page, 'document-type');
    if (shots) await j.shot('document-type');
    await j.page.getByRole('button', { name: 'Driving licence' }).click();
    await screen(j.page, 'capture-front');
  }

  /** the licence's front and back uploaded and used, as the person does it: the selfie is next */
  async function uploadLicenceSides(j: Journey) {
    for (const [side, bytes] of [
      ['front', w.images.front],
      ['back', w.images.back],
    ] as const) {
      await j.page
        .locator(`#upload-${side}`)
        .setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: bytes });
      await screen(j.page, 'review');
      await j.page.getByRole('button', { name: 'Use this photo' }).click();
    }
  }

  it('upload journey: consent, licence, three uploads with review, submit, completed, redirect', async () => {
    const s = await newSession({ redirectUrl: REDIRECT });
    const j = await journey('upload');
    let redirected: string | undefined;
    await j.page.route('https://rp.example.test/**', async (route) => {
      redirected = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the caller' });
    });
    const res = await j.page.goto(s.pageUrl);
    expect(res?.status()).to.equal(200);
    await consentAndLicence(j, true);

    for (const [side, bytes, type, file] of [
      ['front', w.images.front, 'image/png', 'front.png'],
      ['back', w.images.back, 'image/png', 'back.png'],
      ['selfie', w.images.selfie, 'image/jpeg', 'selfie.jpg'],
    ] as const) {
      await screen(j.page, `capture-${side}`);
      await j.shot(`capture-${side}`);
      await j.page
        .locator(`#upload-${side}`)
        .setInputFiles({ name: file, mimeType: type, buffer: bytes });
      if (side !== 'selfie') {
        await screen(j.page, 'review');
        await j.shot(`review-${side}`);
        await j.page.getByRole('button', { name: 'Use this photo' }).click();
      }
    }
    await screen(j.page, 'submit');
    await j.shot('submit');
    await j.page.getByRole('button', { name: 'Send', exact: true }).click();
    await screen(j.page, 'final-completed');
    await j.shot('final-completed');
    expect(await heading(j.page).textContent()).to.equal('Thank you, you are done');
    await j.page.waitForURL(REDIRECT, { timeout: 10_000 });
    expect(redirected).to.equal(REDIRECT);
    // the link again, now that the session is over
    expect((await j.page.goto(s.pageUrl))?.status()).to.equal(410);
    await screen(j.page, 'ended-completed');
    await j.shot('ended-completed');

    // the session's result through the SDK: the certifications a /verify of the same images gives
    const done = await caller().waitForSession('kyc-session', s.sessionId, { timeoutMs: 20_000 });
    expect(done).to.include({ status: 'COMPLETED', documentType: 'DL' });
    const b64 = (b: Buffer) => b.toString('base64');
    const direct = await caller().encryptedRequest<VerifyResult>('POST', '/verify', {
      dvcID: 'kyc-session',
      verifications: ['dl_authenticate', 'document_liveness', 'face_compare', 'face_liveness'],
      document: {
        id: s.sessionId,
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
    const kinds = (r: VerifyResult) => r.certifications.map((c) => [c.kind, c.verified]);
    expect(kinds(done.result as VerifyResult)).to.deep.equal(kinds(direct.body));
  });

  it('passport fixed by the caller: no document choice, the photo page with its review, the selfie', async () => {
    const s = await newSession({ documentType: 'PASSPORT' });
    const j = await journey('passport');
    await j.page.goto(s.pageUrl);
    await screen(j.page, 'consent');
    await j.page.getByLabel('I have read and agree to this').check();
    await j.page.getByRole('button', { name: 'I agree, continue' }).click();
    await screen(j.page, 'capture-passport');
    expect(await j.page.locator('.eyebrow').textContent()).to.equal('Step 1 of 2');
    await j.shot('capture-passport');
    await j.page
      .locator('#upload-passport')
      .setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: w.images.passport });
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await screen(j.page, 'capture-selfie');
    await j.page
      .locator('#upload-selfie')
      .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: w.images.selfie });
    await j.page.getByRole('button', { name: 'Send', exact: true }).click();
    await screen(j.page, 'final-completed');
    const done = await caller().sessionResult('kyc-session', s.sessionId);
    expect(done).to.include({ status: 'COMPLETED', documentType: 'PASSPORT' });
    expect(done.attempts).to.deep.equal({ passport: 1, selfie: 1 });
  });

  it('camera journey: fake camera for both sides, the selfie taken by itself once the face is steady, the detector loaded only then', async () => {
    const s = await newSession();
    const j = await journey('camera');
    const requested: string[] = [];
    j.page.on('request', (request) => requested.push(request.url()));
    await j.page.goto(s.pageUrl);
    await consentAndLicence(j, false);
    for (const side of ['front', 'back'] as const) {
      await screen(j.page, `capture-${side}`);
      await j.page.getByRole('button', { name: 'Use the camera' }).click();
      const take = j.page.getByRole('button', { name: 'Take photo' });
      // enabled once the preview plays (a string waitForFunction would be eval, which the CSP refuses)
      await eventually(
        'the camera preview',
        async () => ((await take.isEnabled()) ? true : undefined),
        10_000,
      );
      await j.shot(`camera-${side}`);
      await take.click();
      await screen(j.page, 'review');
      await j.shot(`review-${side}`);
      await j.page.getByRole('button', { name: 'Use this photo' }).click();
    }
    await screen(j.page, 'capture-selfie');
    // the face detector (its code, weights and WebAssembly) is not fetched before the selfie camera
    expect(requested.filter(isDetectorFile), 'before the selfie camera').to.deep.equal([]);
    await j.page.getByRole('button', { name: 'Use the camera' }).click();
    // no click: once the face is centred and still, the selfie is taken by itself and sent
    await screen(j.page, 'submit');
    const fetched = requested.filter(isDetectorFile).map((url) => url.split('/').at(-1)!);
    for (const file of [/^detector-.*\.js$/, /^tiny_face_detector_model-.*\.bin$/, /\.wasm$/])
      expect(
        fetched.some((name) => file.test(name)),
        `${file} in ${fetched.join()}`,
      ).to.equal(true);
    await j.page.getByRole('button', { name: 'Send', exact: true }).click();
    const end = await Promise.race([
      screen(j.page, 'final-completed').then(() => 'completed'),
      screen(j.page, 'final-failed').then(() => 'failed'),
    ]);
    await j.shot(`final-${end}`);
    const done = await caller().sessionResult('kyc-session', s.sessionId);
    expect(done.state).to.equal(end);
    expect(done.attempts).to.deep.equal({ front: 1, back: 1, selfie: 1 });
  });

  it('no face in the selfie camera: nothing taken by itself, the guidance asks for the face (phone and desktop), the button still takes it', async () => {
    const faceless = await launchBrowser(facelessCameraVideo(`${ARTIFACTS}/faceless-camera.y4m`));
    try {
      const s = await newSession();
      const j = await openJourney(faceless, 'selfie-no-face');
      journeys.push(j);
      await j.page.goto(s.pageUrl);
      await consentAndLicence(j, false);
      await uploadLicenceSides(j);
      await screen(j.page, 'capture-selfie');
      await j.page.getByRole('button', { name: 'Use the camera' }).click();
      const take = j.page.getByRole('button', { name: 'Take photo' });
      await eventually(
        'the camera preview',
        async () => ((await take.isEnabled()) ? true : undefined),
        10_000,
      );
      // the guidance is spoken through a polite live region
      const status = j.page.locator('p.face-advice[role="status"][aria-live="polite"]');
      expect(await status.textContent()).to.equal('Put your face in the oval');
      // the detector is running (not merely loading) and still finds no face several seconds on
      await eventually(
        'the face detector running',
        async () =>
          (await j.page.evaluate(
            `performance.getEntriesByType('resource').some((r) => r.name.includes('tiny_face_detector_model'))`,
          ))
            ? true
            : undefined,
        10_000,
      );
      await j.page.waitForTimeout(5_000);
      expect(await status.textContent()).to.equal('Put your face in the oval');
      await screen(j.page, 'capture-selfie');
      expect(
        (await w.page(s.token).get<{ attempts: Record<string, number> }>('/session')).body.attempts,
      ).to.deep.equal({ front: 1, back: 1 });
      await j.shot('selfie-guidance');
      // the capture button still works: the photo goes, and the server finds no face in it
      await take.click();
      await j.page
        .getByRole('alert')
        .locator('[data-problem="no_face"]')
        .waitFor({ timeout: 20_000 });
      expect(
        (await w.page(s.token).get<{ attempts: Record<string, number> }>('/session')).body.attempts,
      ).to.deep.equal({ front: 1, back: 1, selfie: 1 });
      await j.shot('selfie-no-face-refused');
    } finally {
      await faceless.close();
    }
  });

  it('a selfie with two people, then one cut off by the edge: the advice and its picture name each; a real face is accepted', async () => {
    const s = await newSession();
    const j = await journey('selfie-faces');
    await j.page.goto(s.pageUrl);
    await consentAndLicence(j, false);
    await uploadLicenceSides(j);
    const alert = j.page.getByRole('alert');
    const selfie = async (bytes: Buffer) => {
      await screen(j.page, 'capture-selfie');
      await j.page
        .locator('#upload-selfie')
        .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: bytes });
    };
    // the face-api package's group photo: three real people
    await selfie(await jpeg(brighter(await samplePhoto(1), 1.4)));
    await alert.locator('[data-problem="multiple_faces"]').waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).to.contain('more than one face');
    expect(await j.page.locator('.example.bad').first().textContent()).to.contain('Only you');
    await j.shot('two-people-refused');
    await selfie(await jpeg(await cutOffSelfie()));
    await alert.locator('[data-problem="face_cut_off"]').waitFor({ timeout: 20_000 });
    expect(await j.page.locator('.example.bad').first().textContent()).to.contain('Not cut off');
    await j.shot('face-cut-off-refused');
    await selfie(await jpeg(await realSelfie(2), 'FACE:testy'));
    await screen(j.page, 'submit');
    const { body } = await w.page(s.token).get<{ attempts: Record<string, number> }>('/session');
    expect(body.attempts).to.deep.equal({ front: 1, back: 1, selfie: 3 });
  });

  it('desktop handoff: a QR code of the link, then the end the phone reached', async () => {
    const s = await newSession();
    const j = await journey('handoff', 'desktop');
    await j.page.goto(s.pageUrl);
    await screen(j.page, 'handoff');
    const qr = j.page.getByRole('img', { name: /QR code/ });
    expect(await qr.count()).to.equal(1);
    // the code a phone camera reads is this session's link (its public URL)
    const shot = await Jimp.read(await qr.screenshot());
    expect(await readBarcode(shot.bitmap, 'QRCode')).to.equal(s.url);
    // the link as text beside it, and copied with a button
    expect(await j.page.locator('.handoff-link .link-text').textContent()).to.equal(s.url);
    await j.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: w.url });
    await j.page.getByRole('button', { name: 'Copy the link' }).click();
    await j.page.getByText('Link copied.').waitFor();
    expect(await j.page.evaluate('navigator.clipboard.readText()')).to.equal(s.url);
    await j.shot('handoff');
    // the phone: the same link through the page API
    const phone = w.page(s.token);
    expect(
      (await phone.post('/consent', { accepted: true, textVersion: 'biometric-consent-v1' }))
        .status,
    ).to.equal(200);
    expect((await phone.post('/document-type', { documentType: 'DL' })).status).to.equal(200);
    for (const [side, bytes, type] of [
      ['front', w.images.front, 'image/png'],
      ['back', w.images.back, 'image/png'],
      ['selfie', w.images.selfie, 'image/jpeg'],
    ] as const)
      expect((await phone.put(side, bytes, type)).status).to.equal(200);
    expect((await phone.post('/submit')).status).to.equal(200);
    await screen(j.page, 'final-completed');
    await j.shot('final-completed');
  });

  it('desktop handoff declined: "continue on this device" goes on to the consent', async () => {
    const s = await newSession();
    const j = await journey('handoff-here', 'desktop');
    await j.page.goto(s.pageUrl);
    await screen(j.page, 'handoff');
    await j.page.getByRole('button', { name: 'Continue on this device' }).click();
    await screen(j.page, 'consent');
    await j.shot('consent');
    // a reload keeps to the choice: the QR code is not offered again in this tab
    await j.page.reload();
    await screen(j.page, 'consent');
    // the watch behind every journey sees a violation: an inline style and script are refused
    await j.page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<div style="color:red">x</div>'); const s = document.createElement('script'); s.textContent = 'window.ran = 1'; document.body.append(s);`,
    );
    await j.page.waitForTimeout(200);
    expect(await j.page.evaluate('window.ran')).to.equal(undefined);
    expect(j.problems.filter((p) => p.startsWith('csp:'))).to.have.length.greaterThanOrEqual(2);
    j.problems.length = 0;
  });

  it('a session cancelled while its page is open shows its end at the next action', async () => {
    const s = await newSession();
    const j = await journey('cancelled-meanwhile');
    await j.page.goto(s.pageUrl);
    await screen(j.page, 'consent');
    await caller().cancelSession('kyc-session', s.sessionId);
    await j.page.getByLabel('I have read and agree to this').check();
    await j.page.getByRole('button', { name: 'I agree, continue' }).click();
    await screen(j.page, 'ended-cancelled');
    await j.shot('ended-cancelled');
  });

  it('back to the document choice: a link on a document side, and the browser Back button, while the caller did not fix it', async () => {
    const j = await journey('other-document');
    const s = await newSession();
    await j.page.goto(s.pageUrl);
    await consentAndLicence(j, false);
    await j.page.getByRole('button', { name: 'Use another document' }).click();
    await screen(j.page, 'document-type');
    await j.page.getByRole('button', { name: 'Passport' }).click();
    await screen(j.page, 'capture-passport');
    await j.shot('passport-chosen');
    // Back moves within the flow: to the choice, not away from the page
    await j.page.goBack();
    await screen(j.page, 'document-type');
    expect(j.page.url()).to.equal(s.pageUrl);
    await j.page.getByRole('button', { name: 'Driving licence' }).click();
    await screen(j.page, 'capture-front');
    expect(
      (await w.page(s.token).get<{ documentType: string }>('/session')).body.documentType,
    ).to.equal('DL');
    // a type the caller fixed offers no way back to a choice
    const fixed = await newSession({ documentType: 'DL' });
    await j.page.goto(fixed.pageUrl);
    await screen(j.page, 'consent');
    await j.page.getByLabel('I have read and agree to this').check();
    await j.page.getByRole('button', { name: 'I agree, continue' }).click();
    await screen(j.page, 'capture-front');
    expect(await j.page.getByRole('button', { name: 'Use another document' }).count()).to.equal(0);
  });

  it("Spanish: from the browser's languages or the caller's locale, switched on the page and kept on reload", async () => {
    // a browser that asks for Spanish, a caller that named no locale
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'es-ES',
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const s = await newSession();
    await page.goto(s.pageUrl);
    await page.getByRole('heading', { name: 'Antes de empezar' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).to.equal('es');
    await page.screenshot({ path: `${ARTIFACTS}/spanish-consent-phone.png`, fullPage: true });
    await page
      .getByRole('navigation', { name: 'Idioma' })
      .getByRole('button', { name: 'English' })
      .click();
    await page.getByRole('heading', { name: 'Before you start' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Before you start' }).waitFor();
    await context.close();
    // the caller's locale before an English browser's languages
    const j = await journey('spanish-by-caller');
    const named = await newSession({ locale: 'es' });
    await j.page.goto(named.pageUrl);
    await j.page.getByRole('heading', { name: 'Antes de empezar' }).waitFor();
    await j.page.getByLabel('He leído esto y lo acepto').check();
    await j.page.getByRole('button', { name: 'Acepto, continuar' }).click();
    await j.page.getByRole('button', { name: 'Permiso de conducir' }).click();
    await screen(j.page, 'capture-front');
    // the step is read with the heading (shown above it, apart)
    expect(await heading(j.page).textContent()).to.equal(
      'Paso 1 de 3: Parte delantera de su documento',
    );
    await j.shot('capture-front-es');
  });

  it('declining: the consent screen asks once more, the session ends declined, the way back shown', async () => {
    const j = await journey('decline');
    const s = await newSession({ redirectUrl: REDIRECT });
    await j.page.goto(s.pageUrl);
    await screen(j.page, 'consent');
    await j.page.getByRole('button', { name: 'I do not agree' }).click();
    await screen(j.page, 'decline');
    await j.shot('decline-confirm');
    // going back keeps the session as it was
    await j.page.getByRole('button', { name: 'Go back' }).click();
    await screen(j.page, 'consent');
    await j.page.getByRole('button', { name: 'I do not agree' }).click();
    await j.page.getByRole('button', { name: 'Yes, stop' }).click();
    await screen(j.page, 'ended-declined');
    expect(
      await j.page.getByRole('link', { name: 'Go back to the service' }).getAttribute('href'),
    ).to.equal(REDIRECT);
    await j.shot('declined');
    expect(await caller().sessionResult('kyc-session', s.sessionId)).to.include({
      status: 'DECLINED',
      state: 'declined',
    });
  });

  it("branding: the business's name, logo and colour on every screen, its privacy policy at the consent, its help", async () => {
    const c = w.platform.community;
    const logo = `data:image/png;base64,${(await png(documentImage(96, 48, 3))).toString('base64')}`;
    const branding = {
      name: 'Testy Bank',
      primaryColor: '#7a1f5c',
      logo,
      privacyPolicyUrl: 'https://bank.example/privacy',
      supportUrl: 'https://bank.example/help',
    };
    const made = await caller().request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'kyc-branded',
      dl_authenticate: [{ verifier: 'review' }],
      face_compare: [{ verifier: 'faces' }],
      settings: { branding },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    const created = await caller().createSession('kyc-branded', { userUID: 'user-testy-branded' });
    const j = await journey('branding');
    await j.page.goto(created.url.replace(/^https?:\/\/[^/]+/, w.url));
    await screen(j.page, 'consent');
    expect(await j.page.locator('.brand-name').textContent()).to.equal('Testy Bank');
    // once it has loaded (decode() waits for it): a slow machine may paint the screen first
    const logoWidth = `(async (img) => { await img.decode(); return img.naturalWidth; })(document.querySelector('.brand-logo'))`;
    expect(await j.page.evaluate(logoWidth)).to.equal(96);
    // the logo comes once, at its own address: the session view names it, never carries it
    const view = await w
      .page(new URL(created.url).pathname.split('/').at(-1)!)
      .get<{ branding: Record<string, string> }>('/session');
    expect(view.body.branding).to.not.have.property('logo');
    expect(view.body.branding.logoUrl).to.match(
      /^\/capture\/[A-Za-z0-9_-]+\/logo\?v=[0-9a-f]{16}$/,
    );
    const served = await fetch(`${w.url}${view.body.branding.logoUrl}`);
    expect([
      served.status,
      served.headers.get('content-type'),
      served.headers.get('cache-control'),
    ]).to.deep.equal([200, 'image/png', 'private, max-age=31536000, immutable']);
    expect(
      Buffer.from(await served.arrayBuffer()).equals(Buffer.from(logo.split(',')[1]!, 'base64')),
    ).to.equal(true);
    expect(
      await j.page.evaluate(
        `getComputedStyle(document.querySelector('.button.primary')).backgroundColor`,
      ),
    ).to.equal('rgb(122, 31, 92)');
    expect(
      await j.page.getByRole('link', { name: 'Privacy policy of Testy Bank' }).getAttribute('href'),
    ).to.equal(branding.privacyPolicyUrl);
    expect(await j.page.getByRole('link', { name: 'Help' }).getAttribute('href')).to.equal(
      branding.supportUrl,
    );
    await j.shot('consent-branded');
    // without a support page, help is the page's own tips
    const plain = await newSession();
    await j.page.goto(plain.pageUrl);
    await screen(j.page, 'consent');
    await j.page.locator('summary', { hasText: 'Help' }).click();
    await j.page.getByText('Use your phone if you can').waitFor();
    await j.shot('help');
  });

  it('first load: at most 70 kB transferred, the script and styles compressed', async () => {
    const j = await journey('first-load');
    const s = await newSession();
    const sizes: { url: string; bytes: number; encoding: string | undefined }[] = [];
    j.page.on('requestfinished', (request) => {
      void Promise.all([request.sizes(), request.response()]).then(([size, response]) =>
        sizes.push({
          url: request.url(),
          bytes: size.responseBodySize + size.responseHeadersSize,
          encoding: response?.headers()['content-encoding'],
        }),
      );
    });
    await j.page.goto(s.pageUrl, { waitUntil: 'networkidle' });
    await screen(j.page, 'consent');
    expect(sizes.map((r) => r.url).filter(isDetectorFile), 'on the first load').to.deep.equal([]);
    const total = sizes.reduce((sum, r) => sum + r.bytes, 0);
    expect(total, JSON.stringify(sizes)).to.be.below(70_000);
    for (const asset of sizes.filter((r) => /\/capture\/assets\/.*\.(js|css)$/.test(r.url)))
      // Chromium asks for brotli over HTTPS only: here, over plain HTTP, it takes gzip
      expect(asset.encoding, asset.url).to.be.oneOf(['br', 'gzip']);
  });

  it('a slow upload shows its progress and can be stopped; a dropped connection: neither costs an attempt', async () => {
    const j = await journey('upload-progress');
    const s = await newSession();
    await j.page.goto(s.pageUrl);
    await consentAndLicence(j, false);
    // 150 kB that no codec squeezes, sent as it is, at 20 kB/s: several seconds on the way
    const slow = await noisePng(250, 200);
    const cdp = await j.context.newCDPSession(j.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 100,
      downloadThroughput: 500_000,
      uploadThroughput: 20_000,
    });
    const choose = () =>
      j.page
        .locator('#upload-front')
        .setInputFiles({ name: 'slow.png', mimeType: 'image/png', buffer: slow });
    await choose();
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await j.page
      .getByText(/Sending your photo… \d+%/)
      .first()
      .waitFor();
    await eventually('some of it sent', async () =>
      (await j.page.locator('progress').getAttribute('value')) !== '0' ? true : undefined,
    );
    await j.shot('upload-progress');
    await j.page.getByRole('button', { name: 'Stop sending' }).click();
    await screen(j.page, 'capture-front');
    await j.page.getByRole('alert').getByText('Sending stopped. No attempt was used.').waitFor();
    await j.shot('upload-stopped');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // the connection drops mid-upload
    await j.page.route('**/capture-api/images/**', (route) => route.abort('connectionreset'));
    await choose();
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await j.page
      .getByRole('alert')
      .getByText(/The connection dropped while your photo was being sent/)
      .waitFor();
    await j.shot('upload-dropped');
    await j.page.unroute('**/capture-api/images/**');
    expect(
      (await w.page(s.token).get<{ attempts: Record<string, number> }>('/session')).body.attempts,
    ).to.deep.equal({});
    // and the photo goes through once the line is back, on its first attempt
    await j.page
      .locator('#upload-front')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: w.images.front });
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await screen(j.page, 'capture-back');
    expect(
      (await w.page(s.token).get<{ attempts: Record<string, number> }>('/session')).body.attempts,
    ).to.deep.equal({ front: 1 });
  });

  it('bad input: unknown and ended links, no image, oversize, retakes beyond the limit', async () => {
    const j = await journey('bad-input');
    const unknown = await j.page.goto(`${w.url}/capture/${'x'.repeat(43)}`);
    expect(unknown?.status()).to.equal(404);
    await screen(j.page, 'unknown');
    expect(await heading(j.page).textContent()).to.equal('This link does not work');
    await j.shot('unknown-link');
    // no token at all: the page's own screen, not an error body
    expect((await j.page.goto(`${w.url}/capture/`))?.status()).to.equal(200);
    await screen(j.page, 'unknown');

    const cancelled = await newSession();
    await caller().cancelSession('kyc-session', cancelled.sessionId);
    expect((await j.page.goto(cancelled.pageUrl))?.status()).to.equal(410);
    await screen(j.page, 'ended-cancelled');
    await j.shot('ended-cancelled');

    const s = await newSession();
    await j.page.goto(s.pageUrl);
    await consentAndLicence(j, false);
    const upload = (name: string, mimeType: string, buffer: Buffer) =>
      j.page.locator('#upload-front').setInputFiles({ name, mimeType, buffer });
    const alert = j.page.getByRole('alert');

    await upload('notes.txt', 'text/plain', Buffer.from('not a picture at all'));
    await alert.getByText('This file is not a picture we can read').waitFor();
    await j.shot('not-an-image-local');

    await upload('huge.png', 'image/png', await noisePng());
    await alert.getByText('This photo is too large to send').waitFor({ timeout: 30_000 });
    await j.shot('too-large');

    // a file that claims to be a PNG is caught on the device: nothing sent, no attempt used
    await upload('fake.png', 'image/png', Buffer.from('this is not a png'));
    await alert.getByText('This file is not a picture we can read').waitFor();
    expect(
      await w
        .page(s.token)
        .get<{ attempts: Record<string, number> }>('/session')
        .then((r) => r.body.attempts),
    ).to.deep.equal({});

    // two blurred photos: the first says what is wrong and that one attempt is left
    const blurredFront = await png(blurred(documentImage(), 14), 'DOC:testy');
    await upload('blurred.png', 'image/png', blurredFront);
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await screen(j.page, 'capture-front');
    await alert.locator('[data-problem="blurred"]').waitFor();
    expect(await alert.textContent()).to.contain('This is your last attempt.');
    await j.shot('problem-last-attempt');
    // the last one: the journey ends at once, the reason stays, the back and selfie are not asked
    await upload('blurred.png', 'image/png', blurredFront);
    await screen(j.page, 'review');
    await j.page.getByRole('button', { name: 'Use this photo' }).click();
    await screen(j.page, 'no-attempts');
    await j.page.locator('[data-screen="no-attempts"] [data-problem="blurred"]').waitFor();
    await j.shot('no-attempts');
    const refused = await w.page(s.token).put('front', w.images.front);
    expect([409, 410]).to.include(refused.status);
    await eventually('the session to fail', async () => {
      const result = await caller().sessionResult('kyc-session', s.sessionId);
      return result.status === 'FAILED' ? result : undefined;
    }).then((result) =>
      expect(result).to.include({ status: 'FAILED', failure: 'capture_incomplete' }),
    );

    // the timers end sessions too (last in the suite: the clock moves for every session)
    const idle = await newSession();
    expect((await w.page(idle.token).get('/session')).status).to.equal(200);
    const old = await newSession();
    w.clock.advance(61 * 60_000);
    expect((await j.page.goto(idle.pageUrl))?.status()).to.equal(410);
    await screen(j.page, 'ended-abandoned');
    await j.shot('ended-abandoned');
    w.clock.advance(7 * 24 * 60 * 60_000);
    expect((await j.page.goto(old.pageUrl))?.status()).to.equal(410);
    await screen(j.page, 'ended-expired');
    await j.shot('ended-expired');
  });
});
