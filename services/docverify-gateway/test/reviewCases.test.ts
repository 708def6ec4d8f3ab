// Review cases through real HTTP (issue 28 items 1 and 6): a session's and an async run's result
// held for review under `always` and `on_inconclusive` (callers read INPROGRESS / pending), the
// queue and the case without personal data, the person's data and images read by reviewers only
// (audited), claims and decisions (one of two at once wins), four-eyes, the decision completing
// the verification with a human_review certification callers check like any other.
import { expect } from 'chai';
import { IdvRequestError } from '@idv/client';
import {
  ReviewCase,
  ReviewCaseData,
  ReviewCaseList,
  ReviewReasons,
  ReviewResult,
  ReviewStepAnswer,
  validate,
  VerifyResult as VerifyResultSchema,
  type SessionView,
  type VerifyResult,
} from '@idv/contracts';
import { devReviewCase } from '../../../infra/dev/devReviewCase.ts';
import { eventually, proofClaims, startReviewWorld, type ReviewWorld } from './reviewWorld.ts';

/** Cursors no page gives, each once a 500: as a list's cursor is written, base64url JSON [time, id]. */
const cursorOf = (at: string, id: string) =>
  Buffer.from(JSON.stringify([at, id])).toString('base64url');
const FORGED_CURSORS: [string, string][] = [
  ['a cursor whose id is 36 dashes', cursorOf('2026-01-01T00:00:00.000Z', '-'.repeat(36))],
  [
    'a cursor of a year PostgreSQL cannot store',
    cursorOf('-100000-01-01', '00000000-0000-4000-8000-000000000001'),
  ],
  [
    'a cursor of year 0',
    cursorOf('0000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000001'),
  ],
  [
    'a cursor of a day that is not',
    cursorOf('2026-02-30T00:00:00.000Z', '00000000-0000-4000-8000-000000000001'),
  ],
];

/** The status and error body of a call expected to fail. */
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => ({ status: 0, body: {} as Record<string, unknown> }),
    (err: unknown) => {
      if (!(err instanceof IdvRequestError)) throw err;
      return { status: err.status, body: err.body as Record<string, unknown> };
    },
  );

describe('review cases: held runs, the queue, reads, claims and decisions', function () {
  this.timeout(180_000);
  let w: ReviewWorld;
  before(async () => {
    w = await startReviewWorld({ name: 'review-cases' });
  });
  after(async () => w?.stopWorld());

  const c = () => w.platform.community.id;
  const audit = (action: string, caseId: string) =>
    w.platform.database
      .db('platform.audit_log')
      .where({ action, subject_id: caseId })
      .orderBy('id');

  it('holds a session under `always`: INPROGRESS meanwhile, a case without personal data, approve completes it with a signed review', async () => {
    const { sessionId } = await w.submittedSession('kyc-always');
    const listed = await w.caseOf({ sessionId });
    expect(listed).to.include({ state: 'open', sessionId, assignee: null, dueAt: null });
    const caller = w.client('service');
    const held = await caller.sessionResult('kyc-always', sessionId);
    expect(held).to.include({
      status: 'INPROGRESS',
      state: 'processing',
      verificationId: listed.verificationId,
    });
    expect(held).not.to.have.property('result');
    const opened = await eventually('E_IDV_REVIEW_OPENED', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_REVIEW_OPENED' &&
          (e.data as { caseId: string }).caseId === listed.caseId,
      ),
    );
    expect(opened.data).to.deep.include({
      caseId: listed.caseId,
      verificationId: listed.verificationId,
      sessionId,
      state: 'open',
      reopened: false,
      resultStatus: 'verified',
    });

    // the case, read by a viewer: checks with providers and the face-match score, no personal data
    const kase = await w.operator('viewer').review.case(c(), listed.caseId);
    expect(validate(ReviewCase, kase).ok, 'the answer is what the contract says').to.equal(true);
    expect(validate(ReviewCaseList, await w.operator('viewer').review.cases(c())).ok).to.equal(
      true,
    );
    expect(validate(ReviewReasons, await w.operator('viewer').review.reasons()).ok).to.equal(true);
    expect(kase).to.include({
      state: 'open',
      fourEyes: false,
      resultStatus: 'verified',
      kind: 'session',
      reviewedVerificationId: listed.verificationId,
      overdue: false,
    });
    expect(kase.checks.map((check) => [check.kind, check.provider, check.status])).to.deep.equal([
      ['dl_authenticate', 'auto_review', 'verified'],
      ['document_liveness', 'liveness', 'verified'],
      ['face_compare', 'face_compare_b', 'verified'],
      ['face_liveness', 'liveness', 'verified'],
    ]);
    expect(kase.checks.find((check) => check.kind === 'face_compare')?.score).to.be.a('number');
    expect(JSON.stringify(kase)).not.to.match(/Testy|user-testy-review/i);
    expect(kase.history.map((h) => [h.action, h.state, h.actor])).to.deep.equal([
      ['opened', 'open', 'system'],
    ]);

    // the person's data and images: reviewers (and licences), each read audited
    expect(
      (await refusal(w.operator('viewer').review.caseData(c(), listed.caseId))).status,
    ).to.equal(403);
    const data = await w.operator('reviewer').review.caseData(c(), listed.caseId);
    expect(validate(ReviewCaseData, data).ok).to.equal(true);
    expect(data.given).to.deep.include({ userUID: 'user-testy-review' });
    expect(data.images.map((i) => [i.name, i.mediaType])).to.have.deep.members([
      ['front', 'image/png'],
      ['back', 'image/png'],
      ['selfie', 'image/jpeg'],
    ]);
    const image = await w.operator('reviewer').review.caseImage(c(), listed.caseId, 'front');
    expect(image.contentType).to.equal('image/png');
    expect(image.bytes.equals(w.images.front)).to.equal(true);
    const raw = await fetch(
      `${w.url}/review/community/${c()}/cases/${listed.caseId}/images/selfie`,
      { headers: { authorization: 'Bearer token-reviewer' } },
    );
    expect(raw.headers.get('cache-control')).to.equal('no-store');
    expect(raw.headers.get('content-type')).to.equal('image/jpeg');
    expect(raw.headers.get('x-content-type-options'), 'the upload is never sniffed').to.equal(
      'nosniff',
    );
    expect(raw.headers.get('content-disposition')).to.equal('inline; filename="selfie"');
    expect(
      (await refusal(w.operator('reviewer').review.caseImage(c(), listed.caseId, 'passport')))
        .status,
    ).to.equal(404);
    await caller.review.caseData(c(), listed.caseId);
    const reads = await audit('case.data.read', listed.caseId);
    const actors = reads.map((r: { actor: string }) => r.actor);
    expect(actors[0]).to.equal('operator:testy-reviewer');
    expect(actors[1]).to.match(/^licence:[0-9a-f-]{36}$/);
    expect(actors).to.have.length(2);
    expect(await audit('case.image.read', listed.caseId)).to.have.length(2);

    // claim, note, approve
    const reviewer = w.operator('reviewer').review;
    expect(await reviewer.claim(c(), listed.caseId)).to.deep.include({
      state: 'in_review',
      assignee: 'testy-reviewer',
    });
    expect(
      await reviewer.addNote(c(), listed.caseId, 'Portrait and selfie match; Testy is Testy.'),
    ).to.have.property('noteId');
    const decided = await reviewer.decide(c(), listed.caseId, {
      decision: 'approve',
      reasonCode: 'identity_confirmed',
    });
    expect(decided).to.deep.include({ state: 'decided', outcome: 'approved' });
    expect(validate(ReviewStepAnswer, decided).ok).to.equal(true);
    const done = await caller.waitForSession('kyc-always', sessionId, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(done).to.include({ status: 'COMPLETED', state: 'completed' });
    const result = done.result as VerifyResult;
    expect(result.status).to.equal('verified');
    const review = result.certifications.find((cert) => cert.kind === 'human_review')!;
    expect(review).to.deep.include({
      verified: true,
      status: 'verified',
      authority: 'docverify',
      verifier: 'human_review',
    });
    expect(review.result).to.deep.include({
      decision: 'approve',
      reasonCode: 'identity_confirmed',
      caseId: listed.caseId,
    });
    expect(validate(ReviewResult, review.result).ok).to.equal(true);
    expect(validate(VerifyResultSchema, result).ok).to.equal(true);
    const claims = await proofClaims(w.url, review.proof);
    expect(claims).to.deep.include({
      verificationId: listed.verificationId,
      kind: 'human_review',
      verified: true,
      status: 'verified',
    });
    expect(claims.review).to.deep.include({
      decision: 'approve',
      reasonCode: 'identity_confirmed',
      caseId: listed.caseId,
    });
    expect(JSON.stringify(result)).not.to.contain('testy-reviewer');

    // the completion events follow the decision; the case's own say ids and codes only
    await eventually('E_IDV_SESSION_COMPLETED', () =>
      w.eventsNamed('E_IDV_SESSION_COMPLETED', sessionId).length > 0 ? true : undefined,
    );
    expect(w.eventsNamed('E_IDV_SESSION_COMPLETED', sessionId)[0]!.data).to.deep.include({
      status: 'verified',
      verificationId: listed.verificationId,
    });
    const decidedEvent = w.events.find(
      (e) =>
        e.eventName === 'E_IDV_REVIEW_DECIDED' &&
        (e.data as { caseId: string }).caseId === listed.caseId,
    );
    expect(decidedEvent?.data).to.deep.include({
      decision: 'approve',
      reasonCode: 'identity_confirmed',
      stage: 'single',
      fromState: 'in_review',
      state: 'decided',
    });
    expect(JSON.stringify(w.events)).not.to.match(/testy-reviewer|Testy is Testy/);

    const after = await reviewer.case(c(), listed.caseId);
    expect(after.history.map((h) => h.action)).to.deep.equal([
      'opened',
      'claimed',
      'note_added',
      'decided',
    ]);
    expect(after.decisions).to.deep.equal([
      {
        stage: 'single',
        decision: 'approve',
        reasonCode: 'identity_confirmed',
        by: 'operator:testy-reviewer',
        at: after.decidedAt,
      },
    ]);
    // the note is sealed at rest; the result was read once: the verification's key went with it
    const note = await w.platform.database
      .db('docverify.review_notes')
      .where({ case_id: listed.caseId })
      .first();
    expect(note.text_sealed).not.to.contain('Testy');
    expect(after.notes).to.deep.equal([
      {
        noteId: after.notes[0]!.noteId,
        at: after.notes[0]!.at,
        author: 'operator:testy-reviewer',
        text: null,
      },
    ]);
    for (const action of ['case.claimed', 'case.note.added', 'case.decided'])
      expect(
        (await audit(action, listed.caseId)).map((r: { actor: string }) => r.actor),
        action,
      ).to.deep.equal(['operator:testy-reviewer']);

    const again = await refusal(
      reviewer.decide(c(), listed.caseId, { decision: 'decline', reasonCode: 'face_mismatch' }),
    );
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.include({ statusCode: 409, error: 'Conflict' });
  });

  it('holds an async run under `on_inconclusive` only when it is not verified: pending meanwhile, decline completes it not_verified', async () => {
    const verified = await w.asyncVerify('kyc-inconclusive');
    const caller = w.client('service');
    const straight = await caller.waitForVerification(verified, {
      intervalMs: 100,
      timeoutMs: 20_000,
    });
    expect(straight.status, 'a verified result is not reviewed').to.equal('completed');
    expect(
      await w.platform.database.db('docverify.review_cases').where({ run_id: verified }),
    ).to.have.length(0);

    const id = await w.asyncVerify('kyc-inconclusive', w.otherSelfie);
    const listed = await w.caseOf({ verificationId: id });
    expect(listed.sessionId).to.equal(null);
    expect(listed.dueAt).to.be.a('string');
    expect(new Date(listed.dueAt!).getTime() - new Date(listed.openedAt).getTime()).to.equal(
      30 * 60_000,
    );
    expect(await caller.verification(id)).to.deep.equal({ verificationId: id, status: 'pending' });
    const kase = await w.operator('reviewer').review.case(c(), listed.caseId);
    expect(kase).to.include({ kind: 'async_verify', resultStatus: 'not_verified', slaMinutes: 30 });
    expect(kase.checks.find((check) => check.kind === 'face_compare')).to.include({
      verified: false,
    });
    const data = await w.operator('reviewer').review.caseData(c(), listed.caseId);
    expect(data.given).to.deep.include({ firstName: 'Testy', lastName: 'McTestface', type: 'dl' });
    expect(data.given).not.to.have.property('liveId');
    expect(data.images.map((i) => i.name)).to.have.members(['front', 'back', 'selfie']);

    const reviewer = w.operator('reviewer').review;
    await reviewer.claim(c(), listed.caseId);
    await reviewer.decide(c(), listed.caseId, {
      decision: 'decline',
      reasonCode: 'face_mismatch',
      note: 'another person',
    });
    const done = await caller.waitForVerification(id, { intervalMs: 100, timeoutMs: 20_000 });
    expect(done.status).to.equal('completed');
    expect(done.result?.status).to.equal('not_verified');
    const review = done.result!.certifications.find((cert) => cert.kind === 'human_review')!;
    expect(review).to.deep.include({ verified: false, status: 'not_verified' });
    expect((await proofClaims(w.url, review.proof)).review).to.deep.include({
      decision: 'decline',
      reasonCode: 'face_mismatch',
    });
    const completed = await eventually('E_IDV_VERIFICATION_COMPLETED', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_VERIFICATION_COMPLETED' &&
          (e.data as { verificationId: string }).verificationId === id,
      ),
    );
    expect(completed.data).to.deep.include({ status: 'not_verified' });
  });

  it('holds a sync /verify its config reviews: pending with its verificationId, followed to the decision; one without review answers as before', async () => {
    const caller = w.client('service');
    const straight = await w.syncVerify('kyc-inconclusive');
    expect(straight.status, 'verified: not reviewed').to.equal('verified');
    expect(straight.certifications.map((cert) => cert.kind)).to.include.members([
      'dl_authenticate',
      'face_compare',
    ]);
    expect(
      await w.platform.database
        .db('docverify.review_cases')
        .where({ run_id: straight.verificationId }),
    ).to.have.length(0);

    const held = await w.syncVerify('kyc-inconclusive', w.otherSelfie);
    expect(held).to.deep.include({ status: 'pending', certifications: [] });
    expect(validate(VerifyResultSchema, held).ok).to.equal(true);
    const id = held.verificationId;
    const listed = await w.caseOf({ verificationId: id });
    expect(await caller.verification(id)).to.deep.equal({ verificationId: id, status: 'pending' });
    const reviewer = w.operator('reviewer').review;
    expect(await reviewer.case(c(), listed.caseId)).to.include({
      kind: 'async_verify',
      resultStatus: 'not_verified',
    });
    expect((await reviewer.caseData(c(), listed.caseId)).images.map((i) => i.name)).to.have.members(
      ['front', 'back', 'selfie'],
    );
    await reviewer.claim(c(), listed.caseId);
    await reviewer.decide(c(), listed.caseId, {
      decision: 'approve',
      reasonCode: 'identity_confirmed',
    });
    const done = await caller.waitForVerification(id, { intervalMs: 100, timeoutMs: 20_000 });
    expect(done.result?.status).to.equal('verified');
    const review = done.result!.certifications.find((cert) => cert.kind === 'human_review')!;
    expect((await proofClaims(w.url, review.proof)).review).to.deep.include({
      decision: 'approve',
      caseId: listed.caseId,
    });
  });

  it('four eyes: a first approval waits for a senior other than its reviewer, who confirms or overrides', async () => {
    const first = await w.caseOf({
      sessionId: (await w.submittedSession('kyc-fourEyes')).sessionId,
    });
    const second = await w.caseOf({
      sessionId: (await w.submittedSession('kyc-fourEyes')).sessionId,
    });
    for (const kase of [first, second]) {
      await w.operator('senior').review.claim(c(), kase.caseId);
      const waiting = await w
        .operator('senior')
        .review.decide(c(), kase.caseId, { decision: 'approve', reasonCode: 'identity_confirmed' });
      expect(waiting).to.deep.include({ state: 'awaiting_second', assignee: null, outcome: null });
    }
    const same = await refusal(
      w.operator('senior').review.decide(c(), first.caseId, {
        decision: 'approve',
        reasonCode: 'identity_confirmed',
      }),
    );
    expect(same.status, 'the first reviewer again').to.equal(403);
    expect(String(same.body.message)).to.match(/another operator/);
    const junior = await refusal(
      w.operator('reviewer').review.decide(c(), first.caseId, {
        decision: 'approve',
        reasonCode: 'identity_confirmed',
      }),
    );
    expect(junior.status, 'a reviewer without seniority').to.equal(403);
    const session = (await w.operator('viewer').review.case(c(), first.caseId)).sessionId!;
    expect((await w.client('service').sessionResult('kyc-fourEyes', session)).status).to.equal(
      'INPROGRESS',
    );

    const confirmed = await w
      .operator('admin')
      .review.decide(c(), first.caseId, { decision: 'approve', reasonCode: 'identity_confirmed' });
    expect(confirmed).to.deep.include({ state: 'decided', outcome: 'approved' });
    const overridden = await w.operator('admin').review.decide(c(), second.caseId, {
      decision: 'decline',
      reasonCode: 'document_suspected_forged',
    });
    expect(overridden).to.deep.include({ state: 'decided', outcome: 'declined' });
    const read = await w.operator('viewer').review.case(c(), second.caseId);
    expect(read.decisions.map((d) => [d.stage, d.decision, d.by])).to.deep.equal([
      ['first', 'approve', 'operator:testy-senior'],
      ['second', 'decline', 'operator:testy-admin'],
    ]);
    expect(read.history.map((h) => h.action)).to.deep.equal([
      'opened',
      'claimed',
      'first_decision',
      'overridden',
    ]);
    const view: SessionView = await w
      .client('service')
      .waitForSession('kyc-fourEyes', read.sessionId!, { intervalMs: 100, timeoutMs: 20_000 });
    expect((view.result as VerifyResult).status).to.equal('not_verified');
  });

  it('of two claims, or two decisions, at once exactly one lands; the other is a 409 with the error body', async () => {
    const listed = await w.caseOf({ verificationId: await w.asyncVerify('kyc-always') });
    const claims = await Promise.all(
      ['reviewer', 'reviewer2', 'senior', 'admin'].map((name) =>
        refusal(w.operator(name as 'reviewer').review.claim(c(), listed.caseId)),
      ),
    );
    expect(claims.map((r) => r.status).sort()).to.deep.equal([0, 409, 409, 409]);
    const winner = (await w.operator('viewer').review.case(c(), listed.caseId)).assignee!;
    const name = winner.replace('testy-', '').replace('-2', '2') as 'reviewer';
    const decisions = await Promise.all([
      refusal(
        w.operator(name).review.decide(c(), listed.caseId, {
          decision: 'approve',
          reasonCode: 'identity_confirmed',
        }),
      ),
      refusal(
        w
          .operator(name)
          .review.decide(c(), listed.caseId, { decision: 'decline', reasonCode: 'face_mismatch' }),
      ),
    ]);
    expect(decisions.map((r) => r.status).sort()).to.deep.equal([0, 409]);
    const kase = await w.operator('viewer').review.case(c(), listed.caseId);
    expect(kase.history.filter((h) => h.action === 'decided')).to.have.length(1);
    expect(kase.history.filter((h) => h.action === 'claimed')).to.have.length(1);
  });

  it('refuses the unhappy paths with the platform error body', async () => {
    const listed = await w.caseOf({ verificationId: await w.asyncVerify('kyc-always') });
    const base = `${w.url}/review/community/${c()}/cases`;
    const call = async (
      path: string,
      init: { method?: string; token?: string; body?: unknown } = {},
    ) => {
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.body !== undefined
          ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }
          : {}),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status >= 400)
        expect(body, `${path} ${res.status}`).to.include.keys('statusCode', 'error', 'message');
      return { status: res.status, body };
    };
    const one = `/${listed.caseId}`;
    const decide = (body: unknown, token = 'token-reviewer') =>
      call(`${one}/decision`, { method: 'POST', token, body });
    const cases: [string, Promise<{ status: number; body: Record<string, unknown> }>, number][] = [
      [
        'unknown case',
        call('/00000000-0000-4000-8000-000000000001', { token: 'token-viewer' }),
        404,
      ],
      ['not a case id', call('/not-a-uuid', { token: 'token-viewer' }), 404],
      ['no credentials', call(''), 401],
      ['a token the issuer does not know', call('', { token: 'token-forged' }), 401],
      ['an operator of another community', call('', { token: 'token-elsewhere' }), 403],
      ['a viewer claiming', call(`${one}/claim`, { method: 'POST', token: 'token-viewer' }), 403],
      [
        'an auditor deciding',
        decide({ decision: 'approve', reasonCode: 'identity_confirmed' }, 'token-auditor'),
        403,
      ],
      [
        'a decision without a claim',
        decide({ decision: 'approve', reasonCode: 'identity_confirmed' }),
        409,
      ],
      [
        'a decision without a token',
        call(`${one}/decision`, {
          method: 'POST',
          body: { decision: 'approve', reasonCode: 'identity_confirmed' },
        }),
        401,
      ],
      ['an unknown reason code', decide({ decision: 'approve', reasonCode: 'looks_fine' }), 400],
      [
        'a reason code of another decision',
        decide({ decision: 'approve', reasonCode: 'face_mismatch' }),
        400,
      ],
      ['`other` without a note', decide({ decision: 'decline', reasonCode: 'other' }), 400],
      ['an unknown decision', decide({ decision: 'maybe', reasonCode: 'other' }), 400],
      [
        'a member too many',
        decide({ decision: 'approve', reasonCode: 'identity_confirmed', operator: 'me' }),
        400,
      ],
      [
        'a note too long',
        decide({ decision: 'approve', reasonCode: 'identity_confirmed', note: 'x'.repeat(2001) }),
        400,
      ],
      ['a body that is not JSON', decide('{decision'), 400],
      [
        'an empty note',
        call(`${one}/notes`, { method: 'POST', token: 'token-reviewer', body: { text: '' } }),
        400,
      ],
      ['an unknown state', call('?state=lost', { token: 'token-viewer' }), 400],
      ['a limit too high', call('?limit=1000', { token: 'token-viewer' }), 400],
      ['a cursor no page gave', call('?cursor=bm9wZQ', { token: 'token-viewer' }), 400],
      ...FORGED_CURSORS.map(([what, cursor]): [string, ReturnType<typeof call>, number] => [
        what,
        call(`?cursor=${cursor}`, { token: 'token-viewer' }),
        400,
      ]),
      [
        'releasing an unclaimed case',
        call(`${one}/release`, { method: 'POST', token: 'token-reviewer' }),
        409,
      ],
    ];
    for (const [what, answer, status] of cases) {
      const { status: got, body } = await answer;
      expect(got, `${what}: ${JSON.stringify(body)}`).to.equal(status);
    }
    for (const [what, cursor] of FORGED_CURSORS) {
      const sessions = await w
        .client('service')
        .request<Record<string, unknown>>('GET', `/sessions/community/${c()}?cursor=${cursor}`);
      expect(sessions.status, `the sessions list: ${what}`).to.equal(400);
      expect(sessions.body).to.deep.include({ statusCode: 400, error: 'Bad Request' });
    }
    const reasonIssue = (await decide({ decision: 'approve', reasonCode: 'face_mismatch' })).body;
    expect(reasonIssue.details).to.deep.equal([
      { path: '/reasonCode', message: 'fits decline only' },
    ]);

    // licences: a manager licence of the community reads; another community's, or a community licence, may not
    const path = `/review/community/${c()}/cases`;
    expect((await w.client('service').request('GET', path)).status).to.equal(200);
    expect((await w.client('serviceElsewhere').request('GET', path)).status).to.equal(403);
    expect((await w.client('community').request('GET', path)).status).to.equal(403);
    const claimed = await w
      .client('service')
      .request<Record<string, unknown>>('POST', `${path}/${listed.caseId}/claim`);
    expect(claimed.status, 'a licence claims nothing: operators only').to.equal(401);
    const other = w.platform.otherCommunity.id;
    expect(
      (
        await w
          .client('serviceElsewhere')
          .request('GET', `/review/community/${other}/cases/${listed.caseId}`)
      ).status,
      'a case of another community',
    ).to.equal(404);
  });

  it("validates a config's review beside its settings or inside them, and shows it both ways", async () => {
    const admin = w.client('service');
    const { id: community, tenantId } = w.platform.community;
    const path = `/verificationConfig/community/${community}`;
    const config = (tag: string, more: Record<string, unknown>) =>
      admin.request<Record<string, unknown>>('PUT', path, {
        tenantId,
        tag,
        face_compare: [{ verifier: 'faces' }],
        ...more,
      });
    const refused: [Record<string, unknown>, string][] = [
      [{ review: { mode: 'sometimes' } }, '/review/mode'],
      [{ review: { mode: 'always', slaMinutes: 0 } }, '/review/slaMinutes'],
      [{ review: { mode: 'always', slaMinutes: 43_201 } }, '/review/slaMinutes'],
      [
        { settings: { review: { mode: 'always', slaMinutes: 1.5 } } },
        '/settings/review/slaMinutes',
      ],
      [{ review: { mode: 'always', fourEyes: 'yes' } }, '/review/fourEyes'],
      [{ review: { fourEyes: true } }, '/review/mode'],
      [{ review: { mode: 'always', reviewers: 2 } }, '/review'],
      [{ review: { mode: 'always' }, settings: { review: { mode: 'off' } } }, '/review'],
    ];
    for (const [body, at] of refused) {
      const res = await config('kyc-refused', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body, JSON.stringify(body)).to.include({ statusCode: 400, error: 'Bad Request' });
      const paths = (res.body.details as { path: string }[]).map((d) => d.path);
      expect(
        paths.some((p) => p.startsWith(at)),
        `${JSON.stringify(body)}: ${paths.join(', ')}`,
      ).to.equal(true);
    }
    const beside = await config('kyc-beside', {
      review: { mode: 'on_inconclusive', fourEyes: true, slaMinutes: 43_200 },
    });
    expect(beside.status).to.equal(200);
    expect(beside.body.review).to.deep.equal({
      mode: 'on_inconclusive',
      fourEyes: true,
      slaMinutes: 43_200,
    });
    expect((beside.body.settings as Record<string, unknown>).review).to.deep.equal(
      beside.body.review,
    );
    const plain = await config('kyc-plain', {});
    expect(plain.body.review, 'no review: off').to.deep.equal({ mode: 'off' });
    const patched = await admin.request<Record<string, unknown>>('PATCH', `${path}/kyc-beside`, {
      review: { mode: 'always' },
    });
    expect(patched.status).to.equal(200);
    expect(patched.body.review).to.deep.equal({ mode: 'always' });
  });

  it("seeds make run's open case, and finds it again on the next run", async () => {
    const admin = w.client('service');
    const { id: communityId, tenantId } = w.platform.community;
    for (const [tag, type, config] of [
      ['dev-documents', 'auto_review', { apiKey: 'sandbox-key' }],
      ['dev-faces', 'face_compare_b', { apiKey: 'sandbox-key' }],
      ['dev-liveness', 'liveness', { apiKey: 'sandbox-key', documentApiKey: 'sandbox-key' }],
    ] as const)
      expect(
        (
          await admin.request('PUT', `/verifier/community/${communityId}`, {
            name: tag,
            tag,
            type,
            connectorUrl: w.sandbox.url,
            config,
          })
        ).status,
      ).to.equal(200);
    // the seed looks for an open case first: the suite's own are decided, or claimed, by now
    await w.platform.database
      .db('docverify.review_cases')
      .where({ community_id: communityId, state: 'open' })
      .update({ state: 'expired' });
    const place = {
      docverifyUrl: w.url,
      licenseKey: w.platform.licences.service,
      keyPair: admin.keyPair,
      communityId,
      tenantId,
    };
    const seeded = await devReviewCase(place);
    expect(seeded).to.include({ state: 'open' });
    expect((await w.operator('viewer').review.case(communityId, seeded.caseId)).dvcID).to.equal(
      'dev-review',
    );
    expect(await devReviewCase(place)).to.deep.equal(seeded);
  });

  it('lists the queue oldest first, by state and assignee, a page at a time, and what is overdue', async () => {
    const queue = w.operator('viewer').review;
    const all = await queue.cases(c(), { limit: 100 });
    expect(all.next).to.equal(null);
    const opened = all.items.map((i) => i.openedAt);
    expect(opened).to.deep.equal([...opened].sort());
    const pages: string[] = [];
    for (let cursor: string | undefined, page = 0; page < 20; page++) {
      const got = await queue.cases(c(), { limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(...got.items.map((i) => i.caseId));
      if (!got.next) break;
      cursor = got.next;
    }
    expect(pages).to.deep.equal(all.items.map((i) => i.caseId));
    const decided = await queue.cases(c(), { state: 'decided' });
    expect(decided.items.length).to.be.greaterThan(0);
    expect(decided.items.every((i) => i.state === 'decided')).to.equal(true);
    expect(
      (await queue.cases(c(), { assignee: 'testy-reviewer' })).items.every(
        (i) => i.assignee === 'testy-reviewer',
      ),
    ).to.equal(true);

    const late = await w.caseOf({
      verificationId: await w.asyncVerify('kyc-inconclusive', w.otherSelfie),
    });
    expect((await queue.cases(c(), { overdue: true })).items.map((i) => i.caseId)).not.to.include(
      late.caseId,
    );
    w.clock.advance(31 * 60_000);
    expect((await queue.cases(c(), { overdue: true })).items.map((i) => i.caseId)).to.deep.equal([
      late.caseId,
    ]);
    expect((await queue.case(c(), late.caseId)).overdue).to.equal(true);
  });
});
