// The review rules without servers: when a result is reviewed, the case's state machine (claims,
// releases, four-eyes decisions), the reason codes, and a resubmission's sides and request.
import { expect } from 'chai';
import { ConflictError, InputError, NotAllowedError } from '@idv/errors';
import type { VerifyRequest, VerifyResult } from '@idv/contracts';
import { reviewApplies } from '../src/review/reviewPolicy.ts';
import { reasonFor, REVIEW_REASONS } from '../src/review/reviewReasons.ts';
import {
  claimStep,
  decisionStep,
  releaseStep,
  resubmissionSubmittedStep,
  type CaseFacts,
  type Reviewer,
} from '../src/review/reviewSteps.ts';
import {
  journeyOfRequest,
  requestImages,
  sidesAsked,
  withCaptures,
} from '../src/review/resubmissionCaptures.ts';

const result = (status: VerifyResult['status']) => ({ status }) as VerifyResult;
const ann: Reviewer = { sub: 'a', username: 'ann', roles: ['reviewer'] };
const bob: Reviewer = { sub: 'b', username: 'bob', roles: ['senior_reviewer'] };
const admin: Reviewer = { sub: 'c', username: 'cat', roles: ['admin'] };
const open: CaseFacts = {
  state: 'open',
  fourEyes: false,
  assignee: null,
  assigneeSub: null,
  firstDecision: null,
  claimedFrom: null,
};
const claimed = (by: Reviewer, more: Partial<CaseFacts> = {}): CaseFacts => ({
  ...open,
  state: 'in_review',
  assignee: by.username,
  assigneeSub: by.sub,
  claimedFrom: 'open',
  ...more,
});
const at = '2026-11-26T10:00:00.000Z';

describe('review: when a result is reviewed', () => {
  it('always reviews every final result; on_inconclusive what is not verified; off nothing; pending never yet', () => {
    expect(reviewApplies({ mode: 'always' }, result('verified'))).to.equal(true);
    expect(reviewApplies({ mode: 'on_inconclusive' }, result('verified'))).to.equal(false);
    expect(reviewApplies({ mode: 'on_inconclusive' }, result('not_verified'))).to.equal(true);
    expect(reviewApplies({ mode: 'off' }, result('not_verified'))).to.equal(false);
    expect(reviewApplies({ mode: 'always' }, result('pending'))).to.equal(false);
  });
});

describe('review: the case state machine', () => {
  it('claims an open case or one waiting for a resubmission; refuses one claimed or ended', () => {
    expect(claimStep(open, ann)).to.deep.include({
      to: 'in_review',
      assignee: { username: 'ann', sub: 'a' },
    });
    expect(claimStep({ ...open, state: 'resubmission_requested' }, ann).to).to.equal('in_review');
    expect(() => claimStep(claimed(bob), ann)).to.throw(ConflictError, /claimed by bob/);
    expect(() => claimStep({ ...open, state: 'decided' }, ann)).to.throw(ConflictError, /decided/);
  });

  it('releases to its assignee or an admin only', () => {
    expect(releaseStep(claimed(ann), ann)).to.deep.include({ to: 'open', assignee: null });
    expect(releaseStep(claimed(ann), admin).to).to.equal('open');
    expect(() => releaseStep(claimed(ann), bob)).to.throw(NotAllowedError);
    expect(() => releaseStep(open, ann)).to.throw(ConflictError);
  });

  it('gives a released case back to where the claim took it from: one waiting for a resubmission waits again', () => {
    const waiting: CaseFacts = { ...open, state: 'resubmission_requested' };
    expect(claimStep(waiting, ann).claimedFrom).to.equal('resubmission_requested');
    expect(claimStep(open, ann).claimedFrom).to.equal('open');
    const held = claimed(ann, { claimedFrom: 'resubmission_requested' });
    expect(releaseStep(held, ann)).to.deep.include({
      to: 'resubmission_requested',
      assignee: null,
    });
  });

  it("lets the person's resubmission end a claim taken while the case waited for it, and nothing else", () => {
    expect(resubmissionSubmittedStep({ ...open, state: 'resubmission_requested' })).to.equal(
      undefined,
    );
    const held = claimed(ann, { claimedFrom: 'resubmission_requested' });
    expect(resubmissionSubmittedStep(held)).to.deep.include({
      to: 'resubmission_requested',
      assignee: null,
      action: 'claim_ended_by_resubmission',
    });
    expect(() => resubmissionSubmittedStep(claimed(ann))).to.throw(
      ConflictError,
      /no longer awaited/,
    );
    expect(() => resubmissionSubmittedStep({ ...open, state: 'decided' })).to.throw(
      ConflictError,
      /decided/,
    );
  });

  it('decides by the assignee: final at once, or waiting for a second review with four-eyes', () => {
    expect(() => decisionStep(open, ann, { decision: 'approve', reasonCode: 'x', at })).to.throw(
      ConflictError,
      /claim/,
    );
    expect(() =>
      decisionStep(claimed(bob), ann, { decision: 'approve', reasonCode: 'x', at }),
    ).to.throw(ConflictError);
    expect(
      decisionStep(claimed(ann), ann, { decision: 'decline', reasonCode: 'x', at }),
    ).to.deep.include({ to: 'decided', outcome: 'declined', stage: 'single' });
    const first = decisionStep(claimed(ann, { fourEyes: true }), ann, {
      decision: 'approve',
      reasonCode: 'ok',
      at,
    });
    expect(first).to.deep.include({ to: 'awaiting_second', stage: 'first', assignee: null });
    expect(first.firstDecision).to.deep.equal({
      decision: 'approve',
      reasonCode: 'ok',
      by: 'ann',
      bySub: 'a',
      at,
    });
    const resubmit = decisionStep(claimed(ann, { fourEyes: true }), ann, {
      decision: 'resubmit',
      reasonCode: 'x',
      at,
    });
    expect(resubmit).to.deep.include({
      to: 'resubmission_requested',
      resubmit: true,
      stage: 'single',
    });
  });

  it('gives the second review to a senior other than the first reviewer, who confirms or overrides', () => {
    const waiting: CaseFacts = {
      ...open,
      state: 'awaiting_second',
      fourEyes: true,
      firstDecision: { decision: 'approve', reasonCode: 'ok', by: 'bob', bySub: 'b', at },
    };
    expect(() =>
      decisionStep(waiting, ann, { decision: 'approve', reasonCode: 'ok', at }),
    ).to.throw(NotAllowedError, /senior/);
    expect(() =>
      decisionStep(waiting, bob, { decision: 'approve', reasonCode: 'ok', at }),
    ).to.throw(NotAllowedError, /another operator/);
    expect(() => claimStep(waiting, bob)).to.throw(NotAllowedError);
    expect(
      decisionStep(waiting, admin, { decision: 'approve', reasonCode: 'ok', at }),
    ).to.deep.include({ action: 'confirmed', to: 'decided', stage: 'second' });
    expect(
      decisionStep(waiting, admin, { decision: 'decline', reasonCode: 'no', at }),
    ).to.deep.include({ action: 'overridden', outcome: 'declined' });
    const held = { ...waiting, assignee: 'cat', assigneeSub: 'c' };
    const other: Reviewer = { sub: 'd', username: 'dan', roles: ['senior_reviewer'] };
    expect(() => decisionStep(held, other, { decision: 'approve', reasonCode: 'ok', at })).to.throw(
      ConflictError,
      /claimed by cat/,
    );
  });
});

describe('review: reason codes', () => {
  it('accepts a code that fits its decision, with the note it needs', () => {
    expect(reasonFor('face_mismatch', 'decline').code).to.equal('face_mismatch');
    expect(() => reasonFor('nope', 'approve')).to.throw(InputError, /not a review reason/);
    expect(() => reasonFor('face_mismatch', 'approve')).to.throw(InputError, /does not fit/);
    expect(() => reasonFor('other', 'decline')).to.throw(InputError, /note/);
    expect(reasonFor('other', 'decline', 'why').code).to.equal('other');
  });

  it('gives every code texts for operators and people, and every resubmit code its captures', () => {
    expect(new Set(REVIEW_REASONS.map((r) => r.code)).size).to.equal(REVIEW_REASONS.length);
    for (const r of REVIEW_REASONS) {
      expect(r.person.en, r.code).to.have.length.greaterThan(0);
      expect(r.person.es, r.code).to.have.length.greaterThan(0);
      expect(r.decisions.includes('resubmit'), r.code).to.equal((r.captures ?? []).length > 0);
    }
  });
});

describe("review: a resubmission's captures", () => {
  const request: VerifyRequest = {
    dvcID: 'kyc',
    verifications: ['dl_authenticate', 'face_compare'],
    document: {
      id: 'd',
      type: 'dl',
      firstName: 'Testy',
      front_image: 'AAEC',
      back_image_url: 'https://files.example/back.png',
      liveId: 'AwQF',
      image2: 'AAEC',
    },
  };

  it('names the sides of the journey only (a passport has no back)', () => {
    const dl = { documentType: 'DL', journeyType: 'KYC_WITH_FACE_COMPARISON' } as const;
    expect(sidesAsked(['document_front', 'selfie'], dl)).to.deep.equal(['front', 'selfie']);
    expect(sidesAsked(['document_front'], { ...dl, documentType: 'PASSPORT' })).to.deep.equal([
      'passport',
    ]);
    expect(sidesAsked(['document_back'], { ...dl, documentType: 'PASSPORT' })).to.deep.equal([]);
    expect(
      sidesAsked(['selfie'], { ...dl, journeyType: 'DOCUMENT_VERIFICATION_ONLY' }),
    ).to.deep.equal([]);
  });

  it('reads the journey and the images of an async request, and replaces the sides captured again', () => {
    expect(journeyOfRequest(request)).to.deep.equal({
      documentType: 'DL',
      journeyType: 'KYC_WITH_FACE_COMPARISON',
    });
    expect(journeyOfRequest({ ...request, document: { id: 'd', type: 'ssn' } })).to.equal(
      undefined,
    );
    const images = requestImages(request);
    expect(Object.keys(images)).to.have.members(['front', 'selfie']);
    expect(images.front!.equals(Buffer.from('AAEC', 'base64'))).to.equal(true);
    const back = Buffer.from('new back');
    const replaced = withCaptures(request, { back, selfie: Buffer.from('new selfie') })
      .document as Record<string, unknown>;
    expect(replaced).to.deep.include({
      firstName: 'Testy',
      front_image: 'AAEC',
      image2: 'AAEC',
      back_image: back.toString('base64'),
      liveId: Buffer.from('new selfie').toString('base64'),
    });
    expect(replaced).not.to.have.property('back_image_url');
  });
});
