// The page's journey rules and strings without a browser: which step a session is at, the
// attempts a side has left, which sides get a review, and a text for every code the contract has.
import {
  CAPTURE_PROBLEMS,
  CONSENT_TEXT_VERSION,
  SESSION_DOCUMENT_TYPES,
  CAPTURE_SIDES,
} from '@idv/contracts';
import { expect } from 'chai';
import { examplesFor } from '../src/components/Examples.tsx';
import { attemptsLeft, attemptsUsed, reviewed, screenOf } from '../src/journey.ts';
import { en } from '../src/strings/en.ts';
import { advice, fill, pickLocale, strings } from '../src/strings/index.ts';
import { es } from '../src/strings/es.ts';
import type { CaptureSession } from '../src/strings/types.ts';

function session(patch: Partial<CaptureSession> = {}): CaptureSession {
  return {
    state: 'capturing',
    journeyType: 'KYC_WITH_FACE_COMPARISON',
    documentType: 'DL',
    documentTypes: ['DL', 'IDCARD', 'PASSPORT'],
    branding: null,
    documentFixed: false,
    sides: ['front', 'back', 'selfie'],
    settings: {
      selfieCaptureMode: 'auto',
      reviewScreenFront: true,
      reviewScreenBack: false,
      retryCount: 1,
      selfieRetryCount: 2,
      maxImageBytes: 1 << 20,
    },
    attempts: {},
    accepted: {},
    consent: { given: true, textVersion: CONSENT_TEXT_VERSION },
    locale: 'en',
    redirectUrl: null,
    handoffUrl: 'http://127.0.0.1:8081/capture/x',
    expiresAt: '2030-01-01T00:00:00.000Z',
    ...patch,
  };
}

describe('capture page: journey rules', () => {
  it('leads through consent, the document type, each side in order, then submit', () => {
    expect(
      screenOf(session({ state: 'opened', consent: { given: false, textVersion: 'v' } })),
    ).to.deep.equal({ name: 'consent' });
    expect(screenOf(session({ documentType: null, sides: ['selfie'] }))).to.deep.equal({
      name: 'documentType',
    });
    expect(screenOf(session())).to.deep.equal({ name: 'capture', side: 'front' });
    expect(screenOf(session({ accepted: { front: true } }))).to.deep.equal({
      name: 'capture',
      side: 'back',
    });
    expect(
      screenOf(session({ accepted: { front: true, back: true, selfie: true } })),
    ).to.deep.equal({ name: 'submit' });
    expect(screenOf(session({ state: 'processing' }))).to.deep.equal({ name: 'processing' });
  });

  it('ends the journey at a side out of attempts, and counts the selfie by its own retries', () => {
    const spent = session({ attempts: { front: 2, selfie: 2 } });
    expect(attemptsLeft(spent, 'front')).to.equal(0);
    expect(attemptsLeft(spent, 'selfie')).to.equal(1);
    expect(attemptsLeft(spent, 'back')).to.equal(2);
    // the session is sure to fail: the back and the selfie are not asked for
    expect(screenOf(spent)).to.deep.equal({ name: 'noAttempts', side: 'front' });
    expect(screenOf(session({ attempts: { front: 2 }, accepted: { front: true } }))).to.deep.equal({
      name: 'capture',
      side: 'back',
    });
    // the attempts the server says are left after one, as the page counts them
    expect(attemptsUsed(spent, 'selfie', 2)).to.equal(1);
    expect(attemptsUsed(spent, 'front', 0)).to.equal(2);
  });

  it('reviews the front and the passport page by reviewScreenFront, the back by its own, never the selfie', () => {
    const s = session();
    expect(CAPTURE_SIDES.map((side) => reviewed(s, side))).to.deep.equal([
      true,
      false,
      true,
      false,
    ]);
  });
});

describe('capture page: strings', () => {
  it('has the consent text the server names, and advice for every problem and document type', () => {
    expect(en.consentText[CONSENT_TEXT_VERSION]).to.be.an('array').that.is.not.empty;
    for (const code of CAPTURE_PROBLEMS) expect(en.problems[code], code).to.be.a('string');
    for (const type of SESSION_DOCUMENT_TYPES)
      expect(en.documentTypes[type], type).to.be.a('string');
  });

  it("advises by side: a document's missing face is its portrait, a selfie's the person's", () => {
    expect(advice(en, 'front', 'no_face')).to.contain('portrait on your document');
    expect(advice(en, 'passport', 'no_face')).to.contain('portrait on the photo page');
    expect(advice(en, 'selfie', 'no_face')).to.equal(en.problems.no_face);
    expect(advice(en, 'back', 'blurred')).to.equal(en.problems.blurred);
  });

  it("picks the person's choice, then the caller's locale, then the browser's languages, then English", () => {
    expect(pickLocale(null, null, 'fr-FR', 'es-MX', 'en')).to.equal('es');
    expect(pickLocale(null, 'en', 'es-ES')).to.equal('en');
    expect(pickLocale('es', 'en', 'en-GB')).to.equal('es');
    expect(pickLocale(null, null, 'de-DE')).to.equal('en');
    expect(strings('es-AR')).to.equal(es);
  });

  it('speaks Spanish with every text English has, placeholders kept', () => {
    const keys = (value: unknown, at = ''): string[] =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value).flatMap(([k, v]) => keys(v, `${at}/${k}`))
        : [at];
    expect(keys(es).sort()).to.deep.equal(keys(en).sort());
    expect(fill(es.stepOf, { current: 2, total: 3 })).to.equal('Paso 2 de 3');
    expect(es.consentText[CONSENT_TEXT_VERSION]).to.have.length(
      en.consentText[CONSENT_TEXT_VERSION]!.length,
    );
  });

  it('shows a good photo and two faults, those of the last refusal first', () => {
    expect(examplesFor('front')).to.deep.equal(['good', 'cutOff', 'glare']);
    expect(examplesFor('selfie')).to.deep.equal(['good', 'blurred', 'tooFar']);
    expect(examplesFor('back', ['blurred'])).to.deep.equal(['good', 'blurred', 'cutOff']);
    expect(examplesFor('selfie', ['no_face', 'too_dark'])).to.deep.equal([
      'good',
      'tooFar',
      'dark',
    ]);
  });

  it('falls back from a region to its language, then to English, and fills placeholders', () => {
    expect(strings('en-GB')).to.equal(en);
    expect(strings('fr-CA')).to.equal(en);
    expect(strings(undefined)).to.equal(en);
    expect(fill(en.stepOf, { current: 2, total: 3 })).to.equal('Step 2 of 3');
    expect(fill('{missing} stays', {})).to.equal('{missing} stays');
  });
});
