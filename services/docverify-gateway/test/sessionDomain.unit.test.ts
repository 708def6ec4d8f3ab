// The pure rules of sessions: the state machine from the contract's table, the journey a config
// can run, the request its images make, and the images each connector job carries.
import { expect } from 'chai';
import { SESSION_STATES, SESSION_TRANSITIONS, type SessionState } from '@idv/contracts';
import { documentForKind } from '../src/connectors/kindImages.ts';
import {
  documentTypesOf,
  journeyIssues,
  kindsOf,
  sessionRequest,
  sidesOf,
} from '../src/sessions/sessionJourney.ts';
import { canMove, isFinal, sourcesOf, statesEndedBy } from '../src/sessions/sessionStates.ts';
import { checkVerifyRules } from '../src/verify/verifyRules.ts';

const item = (verifier: string, skip = false) => ({
  verifier,
  skip,
  debug: false,
  returnRawData: false,
});

describe('sessions: the state machine', () => {
  it('allows exactly the moves of SESSION_TRANSITIONS, never out of a final state or backwards', () => {
    const allowed = new Set(SESSION_TRANSITIONS.flatMap((t) => t.from.map((f) => `${f}>${t.to}`)));
    for (const from of SESSION_STATES)
      for (const to of SESSION_STATES)
        expect(canMove(from, to), `${from} -> ${to}`).to.equal(allowed.has(`${from}>${to}`));
    for (const from of SESSION_STATES.filter(isFinal))
      for (const to of SESSION_STATES)
        expect(canMove(from, to), `${from} -> ${to}`).to.equal(false);
    const order = (s: SessionState) => SESSION_STATES.indexOf(s);
    for (const t of SESSION_TRANSITIONS)
      for (const f of t.from) expect(order(t.to)).to.be.above(order(f));
  });

  it('names the states each timer ends and the sources of each state', () => {
    expect(statesEndedBy('expireSessionInMin')).to.deep.equal([
      'created',
      'opened',
      'capturing',
      'submitted',
      'processing',
    ]);
    expect(statesEndedBy('abandonSessionInMin')).to.deep.equal(['opened', 'capturing']);
    expect(sourcesOf('failed')).to.deep.equal(['submitted', 'processing']);
    expect(sourcesOf('created')).to.deep.equal([]);
  });
});

describe('sessions: the journey a config can run', () => {
  const full = {
    dl_authenticate: [item('review')],
    face_compare: [item('faces')],
    face_liveness: [item('live', true)],
  };

  it('offers the document types whose kind is configured (all with document liveness)', () => {
    expect(documentTypesOf(full)).to.deep.equal(['DL']);
    expect(documentTypesOf({ document_liveness: [item('live')] })).to.deep.equal([
      'DL',
      'IDCARD',
      'PASSPORT',
    ]);
    expect(documentTypesOf({ dl_authenticate: [item('review', true)] })).to.deep.equal([]);
  });

  it('names what the config misses for the journey', () => {
    expect(journeyIssues(full, 'KYC_WITH_FACE_COMPARISON', 'DL')).to.deep.equal([]);
    expect(
      journeyIssues(full, 'KYC_WITH_FACE_COMPARISON', 'PASSPORT').map((i) => i.path),
    ).to.deep.equal(['/sessionRequest/documentType']);
    expect(
      journeyIssues({ dl_authenticate: [item('r')] }, 'KYC_WITH_FACE_COMPARISON', undefined).map(
        (i) => i.path,
      ),
    ).to.deep.equal(['/sessionRequest/journeyType']);
    expect(
      journeyIssues({ face_compare: [item('f')] }, 'KYC_WITH_FACE_COMPARISON', undefined).map(
        (i) => i.path,
      ),
    ).to.deep.equal(['/dvcID']);
  });

  it('captures the sides of the document, and the selfie in the face journey', () => {
    expect(sidesOf('DL', 'KYC_WITH_FACE_COMPARISON')).to.deep.equal(['front', 'back', 'selfie']);
    expect(sidesOf('PASSPORT', 'DOCUMENT_VERIFICATION_ONLY')).to.deep.equal(['passport']);
    expect(sidesOf(null, 'KYC_WITH_FACE_COMPARISON')).to.deep.equal(['selfie']);
  });

  it('builds the request /verify would get: each kind its images under the members of spec 2.2', () => {
    const images = {
      front: Buffer.from('F'),
      back: Buffer.from('B'),
      selfie: Buffer.from('S'),
      passport: Buffer.from('P'),
    };
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const kinds = kindsOf(
      { ...full, document_liveness: [item('live')] },
      'DL',
      'KYC_WITH_FACE_COMPARISON',
    );
    expect(kinds).to.deep.equal(['dl_authenticate', 'document_liveness', 'face_compare']);
    const dl = sessionRequest({
      sessionId: 's-1',
      dvcID: 'kyc',
      documentType: 'DL',
      kinds,
      images,
    });
    expect(dl.document).to.deep.equal({
      id: 's-1',
      type: 'dl',
      front_image: b64('F'),
      back_image: b64('B'),
      barcode_image: b64('B'),
      image: b64('F'),
      liveId: b64('S'),
      image2: b64('F'),
    });
    expect(dl.event_info).to.deep.equal({ session_id: 's-1' });
    expect(checkVerifyRules(dl)).to.deep.equal([]);
    const ppt = sessionRequest({
      sessionId: 's-2',
      dvcID: 'kyc',
      documentType: 'PASSPORT',
      kinds: ['ppt_authenticate', 'face_compare'],
      images,
    });
    expect(ppt.document).to.deep.equal({
      id: 's-2',
      type: 'ppt',
      front_image: b64('P'),
      liveId: b64('S'),
      image2: b64('P'),
    });
    expect(checkVerifyRules(ppt)).to.deep.equal([]);
  });

  it('sends each connector job only the images of its kind, every other member as given', () => {
    const document = {
      id: 'd',
      type: 'dl',
      firstName: 'Testy',
      front_image: 'F',
      back_image: 'B',
      image: 'I',
      liveId: 'L',
      image2: 'T',
      image1Url: 'https://x/FACE:a',
    };
    expect(documentForKind('face_compare', document)).to.deep.equal({
      id: 'd',
      type: 'dl',
      firstName: 'Testy',
      liveId: 'L',
      image2: 'T',
      image1Url: 'https://x/FACE:a',
    });
    expect(documentForKind('dl_authenticate', document)).to.deep.equal({
      id: 'd',
      type: 'dl',
      firstName: 'Testy',
      front_image: 'F',
      back_image: 'B',
    });
    expect(documentForKind('ssn_verify', document)).to.deep.equal({
      id: 'd',
      type: 'dl',
      firstName: 'Testy',
    });
  });
});
