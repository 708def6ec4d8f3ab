// Resubmission, erasure and the hold of review cases through real HTTP (issue 28 items 1, 5, 6): a
// reviewer asks for a new selfie, the original session reads INPROGRESS with the new link, the
// person captures it on the new session's page, its run comes back to the case, the decision ends
// both; an admin operator erases a session with an open case; a case past REVIEW_HOLD_HOURS expires
// and fails its run with its images dropped.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION, type VerifyResult } from '@idv/contracts';
import {
  eventually,
  proofClaims,
  startReviewWorld,
  tokenOf,
  type ReviewWorld,
} from './reviewWorld.ts';

describe('review cases: resubmission, erasure, the hold', function () {
  this.timeout(180_000);
  let w: ReviewWorld;
  before(async () => {
    w = await startReviewWorld({ name: 'review-resubmit' });
  });
  after(async () => w?.stopWorld());

  const c = () => w.platform.community.id;
  const db = () => w.platform.database.db;

  it('asks for a new selfie only; the original waits with the link; the new captures come back to the case; the decision ends both', async () => {
    // on_inconclusive: the selfie of someone else makes it not verified
    const { sessionId } = await w.submittedSession('kyc-inconclusive', w.otherSelfie);
    const listed = await w.caseOf({ sessionId });
    const reviewer = w.operator('reviewer').review;
    await reviewer.claim(c(), listed.caseId);
    const asked = await reviewer.decide(c(), listed.caseId, {
      decision: 'resubmit',
      reasonCode: 'selfie_unusable',
      note: 'the selfie is of someone else',
    });
    expect(asked).to.deep.include({
      state: 'resubmission_requested',
      assignee: null,
      outcome: null,
    });
    const resubmission = asked.resubmission!;
    expect(resubmission.url).to.match(/\/capture\/[A-Za-z0-9_-]{43}$/);

    // the caller reads INPROGRESS with the link; the event names ids only
    const caller = w.client('service');
    const waiting = await caller.sessionResult('kyc-inconclusive', sessionId);
    expect(waiting).to.deep.include({ status: 'INPROGRESS', resubmission });

    // the link (its token a credential) and the note's text: reviewers and licences, audited; not viewers or auditors
    const notesRead = () =>
      db()('platform.audit_log')
        .where({ action: 'case.notes.read', subject_id: listed.caseId })
        .orderBy('id');
    for (const name of ['viewer', 'auditor'] as const) {
      const read = await w.operator(name).review.case(c(), listed.caseId);
      expect(read.resubmission, name).to.deep.equal({
        sessionId: resubmission.sessionId,
        expiresAt: resubmission.expiresAt,
      });
      expect(
        read.notes.map((n) => Object.keys(n).sort()),
        name,
      ).to.deep.equal([['at', 'author', 'noteId']]);
      expect(JSON.stringify(read), name).not.to.contain(tokenOf(resubmission.url));
      expect(JSON.stringify(read), name).not.to.contain('someone else');
    }
    expect(await notesRead(), 'a read without texts or link').to.have.length(0);
    for (const name of ['reviewer', 'senior', 'admin'] as const) {
      const read = await w.operator(name).review.case(c(), listed.caseId);
      expect(read.resubmission, name).to.deep.equal(resubmission);
      expect(
        read.notes.map((n) => n.text),
        name,
      ).to.deep.equal(['the selfie is of someone else']);
    }
    expect((await caller.review.case(c(), listed.caseId)).resubmission, 'a licence').to.deep.equal(
      resubmission,
    );
    const reads = await notesRead();
    expect(reads.map((r: { actor: string }) => r.actor)).to.deep.equal([
      'operator:testy-reviewer',
      'operator:testy-senior',
      'operator:testy-admin',
      reads[3]?.actor,
    ]);
    expect(reads[3]?.actor).to.match(/^licence:[0-9a-f-]{36}$/);
    expect(reads[0]?.details).to.deep.include({ notes: 1, link: true });
    const requested = await eventually('E_IDV_RESUBMISSION_REQUESTED', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_RESUBMISSION_REQUESTED' &&
          (e.data as { caseId: string }).caseId === listed.caseId,
      ),
    );
    expect(requested.data).to.deep.include({
      resubmissionSessionId: resubmission.sessionId,
      reasonCode: 'selfie_unusable',
      captures: ['selfie'],
    });
    expect(JSON.stringify(requested)).not.to.contain(tokenOf(resubmission.url));
    const link = await db()('docverify.review_cases')
      .where({ id: listed.caseId })
      .first('resubmission_sealed');
    expect(link.resubmission_sealed, 'the link is sealed at rest').not.to.contain(
      tokenOf(resubmission.url),
    );

    // the new session asks for the selfie of the same document only
    const page = w.page(tokenOf(resubmission.url));
    const view = await page.get<{ sides: string[]; documentType: string; journeyType: string }>(
      '/session',
    );
    expect(view.body).to.deep.include({
      sides: ['selfie'],
      documentType: 'DL',
      journeyType: 'KYC_WITH_FACE_COMPARISON',
    });
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    expect(
      (await page.put('front', w.images.front)).status,
      'the front is not asked again',
    ).to.equal(409);
    expect((await page.put('selfie', w.images.selfie, 'image/jpeg')).body).to.deep.include({
      accepted: true,
    });
    expect((await page.post('/submit')).status).to.equal(200);

    // its run, verified with the new selfie and the original's document, brings the case back
    const back = await eventually('the case back to open', async () => {
      const kase = await reviewer.case(c(), listed.caseId);
      return kase.state === 'open' ? kase : undefined;
    });
    expect(back.reviewedVerificationId).not.to.equal(listed.verificationId);
    expect(back.resultStatus).to.equal('verified');
    expect(back.checks.find((check) => check.kind === 'face_compare')).to.include({
      verified: true,
    });
    expect(back.resubmission).to.equal(null);
    expect(back.history.map((h) => h.action)).to.deep.equal([
      'opened',
      'claimed',
      'resubmission_requested',
      'resubmission_received',
    ]);
    expect(back.notes.map((n) => n.text)).to.deep.equal(['the selfie is of someone else']);
    const data = await reviewer.caseData(c(), listed.caseId);
    expect(data.images.map((i) => i.name)).to.have.members(['front', 'back', 'selfie']);
    const selfie = await reviewer.caseImage(c(), listed.caseId, 'selfie');
    expect(selfie.bytes.equals(w.images.selfie), 'the new selfie').to.equal(true);
    expect((await caller.sessionResult('kyc-inconclusive', sessionId)).status).to.equal(
      'INPROGRESS',
    );

    await reviewer.claim(c(), listed.caseId);
    await reviewer.decide(c(), listed.caseId, {
      decision: 'approve',
      reasonCode: 'identity_confirmed',
    });
    const done = await caller.waitForSession('kyc-inconclusive', sessionId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(done.status).to.equal('COMPLETED');
    const result = done.result as VerifyResult;
    expect(result.status).to.equal('verified');
    const review = result.certifications.find((cert) => cert.kind === 'human_review')!;
    expect(await proofClaims(w.url, review.proof)).to.deep.include({
      verificationId: listed.verificationId,
      verified: true,
    });
    const newSession = await caller.waitForSession('kyc-inconclusive', resubmission.sessionId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(newSession.status).to.equal('COMPLETED');
    expect((newSession.result as VerifyResult).status).to.equal('verified');
  });

  it("resubmits an async verification: a session asking for the front only, its run with the request's other images and data", async () => {
    const id = await w.asyncVerify('kyc-always');
    const listed = await w.caseOf({ verificationId: id });
    const reviewer = w.operator('reviewer2').review;
    await reviewer.claim(c(), listed.caseId);
    const { resubmission } = await reviewer.decide(c(), listed.caseId, {
      decision: 'resubmit',
      reasonCode: 'document_front_unreadable',
    });
    const caller = w.client('service');
    expect(await caller.verification(id)).to.deep.equal({
      verificationId: id,
      status: 'pending',
      resubmission,
    });
    const page = w.page(tokenOf(resubmission!.url));
    expect((await page.get<{ sides: string[] }>('/session')).body.sides).to.deep.equal(['front']);
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    expect((await page.put('front', w.images.front)).body).to.deep.include({ accepted: true });
    expect((await page.post('/submit')).status).to.equal(200);
    const back = await eventually('the case back to open', async () => {
      const kase = await reviewer.case(c(), listed.caseId);
      return kase.state === 'open' ? kase : undefined;
    });
    expect(back.checks.map((check) => [check.kind, check.verified])).to.deep.equal([
      ['dl_authenticate', true],
      ['face_compare', true],
    ]);
    expect((await reviewer.caseData(c(), listed.caseId)).given).to.deep.include({
      firstName: 'Testy',
    });
    await reviewer.claim(c(), listed.caseId);
    await reviewer.decide(c(), listed.caseId, {
      decision: 'approve',
      reasonCode: 'identity_confirmed',
    });
    const done = await caller.waitForVerification(id, { intervalMs: 100, timeoutMs: 20_000 });
    expect(done.result?.status).to.equal('verified');
    expect(done.result?.certifications.map((cert) => cert.kind)).to.include('human_review');
  });

  it("a claim while the case waits for a resubmission: released, it waits again; the person's submit ends it; none while the new captures are verified; a run its case no longer awaits fails unreviewed", async () => {
    const { sessionId } = await w.submittedSession('kyc-always');
    const listed = await w.caseOf({ sessionId });
    const reviewer = w.operator('reviewer').review;
    type Refusal = { status: number; body: { message?: string } };
    const refused = (work: Promise<unknown>) =>
      work.then(
        (): Refusal => ({ status: 0, body: {} }),
        (err: Refusal) => err,
      );
    await reviewer.claim(c(), listed.caseId);
    const resubmission = (
      await reviewer.decide(c(), listed.caseId, {
        decision: 'resubmit',
        reasonCode: 'selfie_unusable',
      })
    ).resubmission!;
    const caller = w.client('service');

    // claimed to decide without the person, then released: the case waits for them again, its caller reads the link again
    expect(await reviewer.claim(c(), listed.caseId)).to.deep.include({ state: 'in_review' });
    expect(await reviewer.release(c(), listed.caseId)).to.deep.include({
      state: 'resubmission_requested',
      assignee: null,
    });
    expect((await caller.sessionResult('kyc-always', sessionId)).resubmission).to.deep.equal(
      resubmission,
    );

    // claimed again, and the person submits meanwhile: the new captures end the claim, a decision on the old ones is a 409
    await reviewer.claim(c(), listed.caseId);
    const page = w.page(tokenOf(resubmission.url));
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    expect((await page.put('selfie', w.images.selfie, 'image/jpeg')).body).to.deep.include({
      accepted: true,
    });
    const asked = w.sandbox.faults.callsOf('default');
    w.sandbox.faults.set('default', { latencyMs: 3_000 }); // the run stays being verified a while
    try {
      expect((await page.post('/submit')).status, 'the submit during a claim').to.equal(200);
      const taken = await reviewer.case(c(), listed.caseId);
      expect(taken).to.include({ state: 'resubmission_requested', assignee: null });
      expect(taken.history.at(-1)).to.deep.include({
        action: 'claim_ended_by_resubmission',
        actor: 'system',
        fromState: 'in_review',
      });
      expect(
        (
          await refused(
            reviewer.decide(c(), listed.caseId, {
              decision: 'decline',
              reasonCode: 'face_mismatch',
            }),
          )
        ).status,
      ).to.equal(409);
      const claim = await refused(w.operator('reviewer2').review.claim(c(), listed.caseId));
      expect(claim.status, 'no claim while the new captures are verified').to.equal(409);
      expect(String(claim.body.message)).to.match(/being verified/);

      // the case moves on while the connectors are asked (as the hold's expiry does it)
      await eventually('the connectors asked', () =>
        w.sandbox.faults.callsOf('default') > asked ? true : undefined,
      );
      await db()('docverify.review_cases')
        .where({ id: listed.caseId })
        .update({ state: 'expired' });
    } finally {
      w.sandbox.faults.clear('default');
    }
    const ended = await caller.waitForSession('kyc-always', resubmission.sessionId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(ended).to.include({ status: 'FAILED', failure: 'resubmission_not_awaited' });
    expect(ended).not.to.have.property('result');
    const run = await db()('docverify.verification_runs')
      .where({ session_id: resubmission.sessionId })
      .first();
    expect(run).to.include({
      status: 'failed',
      failure: 'resubmission_not_awaited',
      result_sealed: null,
    });
    expect(
      await db()('docverify.session_images').where({ session_id: resubmission.sessionId }),
      'its captures dropped',
    ).to.have.length(0);
    expect(w.eventsNamed('E_IDV_SESSION_COMPLETED', resubmission.sessionId)).to.deep.equal([]);
  });

  it('refuses a resubmission that asks for nothing the verification has (a passport has no back)', async () => {
    const { sessionId } = await w.submittedSession('kyc-always');
    const listed = await w.caseOf({ sessionId });
    const reviewer = w.operator('reviewer').review;
    await reviewer.claim(c(), listed.caseId);
    const journey = await db()('docverify.sessions')
      .where({ id: sessionId })
      .update({ document_type: 'PASSPORT' });
    expect(journey).to.equal(1);
    const refused = await reviewer
      .decide(c(), listed.caseId, { decision: 'resubmit', reasonCode: 'barcode_unreadable' })
      .catch((err: { status: number; body: unknown }) => err);
    expect(refused).to.deep.include({ status: 400 });
    expect((await reviewer.case(c(), listed.caseId)).state).to.equal('in_review');
  });

  it('erases a session with an open case: an admin operator signed in within 5 minutes, the case closed as erased, its notes and images gone', async () => {
    const { sessionId } = await w.submittedSession('kyc-always');
    const listed = await w.caseOf({ sessionId });
    await w.operator('reviewer').review.addNote(c(), listed.caseId, 'a note about Testy');
    const erase = (token: string) =>
      fetch(`${w.url}/erasure/community/${c()}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId }),
      });
    const reviewerTry = await erase('token-reviewer');
    expect(reviewerTry.status, 'a reviewer erases nothing').to.equal(403);
    expect(await reviewerTry.json()).to.include({ statusCode: 403, error: 'Forbidden' });
    expect((await erase('token-elsewhere')).status, "another community's admin").to.equal(403);
    const stale = await erase('token-admin-stale');
    expect(stale.status, 'an admin signed in 10 minutes ago').to.equal(401);
    expect(stale.headers.get('www-authenticate')).to.match(
      /insufficient_user_authentication.*max_age=300/,
    );
    expect(await stale.json()).to.include({ statusCode: 401 });
    const erased = await erase('token-admin');
    expect(erased.status).to.equal(200);
    const body = (await erased.json()) as {
      erased: true;
      tombstone: { erasedBy: string; runs: string[]; deleted: Record<string, number> };
    };
    expect(body.tombstone).to.deep.include({
      erasedBy: 'operator:testy-admin',
      runs: [listed.verificationId],
    });
    expect(body.tombstone.deleted).to.deep.include({
      sessions: 1,
      images: 3,
      runs: 1,
      reviewCases: 1,
      reviewNotes: 1,
    });

    const kase = await w.operator('viewer').review.case(c(), listed.caseId);
    expect(kase).to.include({ state: 'erased', assignee: null });
    expect(kase.history.at(-1)).to.deep.include({
      action: 'erased',
      actor: 'operator:testy-admin',
      fromState: 'open',
    });
    expect(kase.notes).to.deep.equal([]);
    const gone = await fetch(`${w.url}/review/community/${c()}/cases/${listed.caseId}/data`, {
      headers: { authorization: 'Bearer token-reviewer' },
    });
    expect(gone.status).to.equal(410);
    expect(await db()('docverify.session_images').where({ session_id: sessionId })).to.have.length(
      0,
    );
    expect(await db()('docverify.review_notes').where({ case_id: listed.caseId })).to.have.length(
      0,
    );
    const audit = await db()('platform.audit_log').where({
      action: 'data.erased',
      subject_id: sessionId,
    });
    expect(audit.map((r: { actor: string }) => r.actor)).to.deep.equal(['operator:testy-admin']);
    const again = await erase('token-admin');
    expect(((await again.json()) as typeof body).tombstone).to.deep.equal(body.tombstone);
  });

  it('expires a case past REVIEW_HOLD_HOURS: its run fails (review_hold_expired), its images dropped', async () => {
    const { sessionId } = await w.submittedSession('kyc-always');
    const held = await w.caseOf({ sessionId });
    const asyncCase = await w.caseOf({ verificationId: await w.asyncVerify('kyc-always') });
    const caller = w.client('service');
    w.clock.advance(719 * 3_600_000);
    expect((await caller.sessionResult('kyc-always', sessionId)).status, 'still held').to.equal(
      'INPROGRESS',
    );
    w.clock.advance(2 * 3_600_000);
    const failed = await caller.waitForSession('kyc-always', sessionId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(failed).to.include({ status: 'FAILED', failure: 'review_hold_expired' });
    const run = await caller.waitForVerification(asyncCase.verificationId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(run).to.deep.include({ status: 'failed', failure: 'review_hold_expired' });
    expect((await w.operator('viewer').review.case(c(), held.caseId)).state).to.equal('expired');
    expect(await db()('docverify.session_images').where({ session_id: sessionId })).to.have.length(
      0,
    );
    const decided = await w
      .operator('reviewer')
      .review.claim(c(), held.caseId)
      .catch((err: { status: number }) => err);
    expect(decided).to.deep.include({ status: 409 });
  });
});
