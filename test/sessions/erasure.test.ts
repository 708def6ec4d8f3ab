// Erasure (issue 26, DESIGN 2.5) through the HTTP API: a completed session with its images and
// result kept, an async verification and a kept /verify result are erased by destroying their data
// keys. Afterwards nothing of them opens (PostgreSQL, the API), the tombstone and the event hold no
// personal data, a second call answers the same tombstone; and a database restored from a dump taken
// before the erasure, beside the keystore kept apart, does not bring the person's data back, nor
// the review case the erasure closed (live again, with its notes, in the older dump).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OperatorClient } from '@idv/client';
import {
  CONSENT_TEXT_VERSION,
  type ErasureResponse,
  type SessionView,
  type VerifyRequest,
  type VerifyResult,
} from '@idv/contracts';
import { createTestDatabase } from '@idv/testing/testServers';
import { DataKeyGone, localKeyring, reapplyErasures } from '@idv/platform';
import { migrateAll } from '../../services/admin-cli/src/migrateAll.ts';
import { startOperatorsStandIn, type OperatorsStandIn } from '@idv/testing/operatorsStandIn';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const run = promisify(execFile);
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const USER = 'user-erasure-testy-mctestface';

/**
 * Room for a second E_IDV_DATA_ERASED after an erasure repeated. Kept as a fixed wait: a marker
 * would need another subject erased after it, a session and its run made for nothing but that, and
 * would be no faster than this.
 */
const NO_SECOND_EVENT_MS = 300;

describe('erasure: data keys destroyed, rows deleted, a tombstone kept', function () {
  this.timeout(180_000);
  let w: SessionWorld;
  let operators: OperatorsStandIn;
  const dirs: string[] = [];
  before(async () => {
    operators = await startOperatorsStandIn({ reviewer: { roles: ['reviewer'] } });
    // results and images kept for an hour: there is something to erase
    w = await startSessionWorld({
      name: 'erasure',
      platform: { OPERATORS_USERINFO_URL: operators.url },
      settings: { dataRetention: { pii_retention_off: false, pii_retention_ttl: 3600 } },
    });
    const c = w.platform.community;
    const review = await w
      .client('service')
      .request('PUT', `/verificationConfig/community/${c.id}`, {
        tenantId: c.tenantId,
        tag: 'kyc-review',
        face_compare: [{ verifier: 'faces' }],
        review: { mode: 'always' },
      });
    expect(review.status, JSON.stringify(review.body)).to.equal(200);
  });
  after(async () => {
    await w?.stop();
    await operators?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const erase = (
    body: unknown,
    licence: 'service' | 'community' | 'serviceElsewhere' = 'service',
    communityId = w.platform.community.id,
  ) =>
    w
      .client(licence)
      .request<ErasureResponse & { error?: unknown }>(
        'POST',
        `/erasure/community/${communityId}`,
        body,
      );
  const keyring = () =>
    localKeyring(
      w.platform.database.db,
      Buffer.from(w.platform.env.MASTER_KEY!, 'base64'),
      w.platform.env.MASTER_KEYS_DIR!,
    );
  const gone = (work: Promise<unknown>) =>
    work.then(
      () => 'opened',
      (err: unknown) => (err instanceof DataKeyGone ? 'gone' : String(err)),
    );

  /** A session through capture to COMPLETED; its id. */
  async function completedSession(): Promise<string> {
    const caller = w.client('service');
    const created = await caller.encryptedRequest<{ sessionId: string; url: string }>(
      'POST',
      '/document_share_session/create',
      {
        dvcID: 'kyc-session',
        sessionRequest: {
          tenantDNS: 'bank.example',
          communityName: w.platform.community.name,
          userUID: USER,
        },
      },
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const page = w.page(tokenOf(created.body.url));
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    await page.post('/document-type', { documentType: 'DL' });
    for (const [side, bytes, type] of [
      ['front', w.images.front, 'image/png'],
      ['back', w.images.back, 'image/png'],
      ['selfie', w.images.selfie, 'image/jpeg'],
    ] as const)
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    expect((await page.post('/submit')).status).to.equal(200);
    const { sessionId } = created.body;
    await eventually('the session to complete', async () => {
      const row = await w.platform.database
        .db('docverify.sessions')
        .where({ id: sessionId })
        .first('status');
      return row.status === 'completed' ? true : undefined;
    });
    return sessionId;
  }

  /** An async /verify held for a human review, its case claimed by a reviewer who adds a note. */
  async function caseInReview(): Promise<{ verificationId: string; caseId: string }> {
    const caller = w.client('service');
    const c = w.platform.community;
    const b64 = (b: Buffer) => b.toString('base64');
    const request = {
      dvcID: 'kyc-review',
      verifications: ['face_compare'],
      document: {
        id: 'review-me',
        type: 'dl',
        image: b64(w.images.front),
        image2: b64(w.images.front),
        liveId: b64(w.images.selfie),
      },
    };
    const { verificationId } = await caller.verifyAsync(request as VerifyRequest);
    const caseId = await eventually(
      'the review case',
      async () =>
        (await caller.review.cases(c.id, { limit: 100 })).items.find(
          (i) => i.verificationId === verificationId,
        )?.caseId,
    );
    const reviewer = new OperatorClient({
      baseUrl: w.url,
      accessToken: operators.token('reviewer'),
    });
    await reviewer.review.claim(c.id, caseId);
    await reviewer.review.addNote(c.id, caseId, 'Testy McTestface: the photo matches');
    return { verificationId, caseId };
  }

  it('keeps, through the migrations every start runs, an ended session whose key retention destroyed', async () => {
    const db = w.platform.database.db;
    const sessionId = await completedSession();
    // what retention does to a session that ends keeping nothing: its key goes, its result stays
    // until the caller reads it (an admin command, which migrates first, once deleted such rows)
    await keyring().destroy({ kind: 'session', id: sessionId });
    await migrateAll(db);
    expect(await db('docverify.sessions').where({ id: sessionId })).to.have.length(1);
    const polled = await w
      .client('service')
      .encryptedRequest<{ status: string }>('POST', '/document_share_session/result', {
        dvcID: 'kyc-session',
        sessionId,
      });
    expect(polled.status, JSON.stringify(polled.body)).to.equal(200);
  });

  it('erases a completed session: nothing of it opens, the tombstone and the event hold no personal data', async () => {
    const db = w.platform.database.db;
    const sessionId = await completedSession();
    const images = await db('docverify.session_images').where({ session_id: sessionId });
    expect(images.map((r) => r.side).sort()).to.deep.equal(['back', 'front', 'selfie']);
    const { run_id: runId } = await db('docverify.sessions')
      .where({ id: sessionId })
      .first('run_id');
    const runRow = await db('docverify.verification_runs')
      .where({ id: runId })
      .first('result_sealed');
    expect(runRow.result_sealed).to.be.a('string');
    // before: the sealed values open
    expect(
      await gone(
        keyring().openBytes(images[0].image_sealed, `session-image:${sessionId}:${images[0].side}`),
      ),
    ).to.equal('opened');

    const erased = await erase({ sessionId });
    expect(erased.status, JSON.stringify(erased.body)).to.equal(200);
    const { tombstone } = erased.body;
    expect(tombstone).to.deep.include({
      subject: 'session',
      subjectId: sessionId,
      communityId: w.platform.community.id,
      runs: [runId],
    });
    expect(tombstone.deleted).to.deep.equal({ sessions: 1, images: 3, runs: 1 });
    expect(tombstone.dataKeys).to.have.length(2); // the session's and its run's
    expect(tombstone.digests.length).to.be.at.least(4);

    // PostgreSQL: no row of it, its keys destroyed and in the ledger, the copies do not open
    for (const [table, where] of [
      ['docverify.sessions', { id: sessionId }],
      ['docverify.session_images', { session_id: sessionId }],
      ['docverify.verification_runs', { id: runId }],
    ] as const)
      expect(await db(table).where(where), table).to.deep.equal([]);
    expect(await db('keys.data_keys').whereIn('id', tombstone.dataKeys)).to.deep.equal([]);
    expect((await db('keys.erased_data_keys').whereIn('id', tombstone.dataKeys)).length).to.equal(
      2,
    );
    for (const image of images)
      expect(
        await gone(
          keyring().openBytes(image.image_sealed, `session-image:${sessionId}:${image.side}`),
        ),
        image.side,
      ).to.equal('gone');
    expect(await gone(keyring().open(runRow.result_sealed, `run-result:${runId}`))).to.equal(
      'gone',
    );
    const dump = JSON.stringify(await db('docverify.erasures'));
    expect(dump).to.not.contain(USER);
    // audited: who, what, when, in the append-only log
    const audit = await db('platform.audit_log').where({
      subject_kind: 'session',
      subject_id: sessionId,
    });
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({
      action: 'data.erased',
      actor: tombstone.erasedBy,
      community_id: w.platform.community.id,
    });
    expect(JSON.stringify(audit)).to.not.contain(USER);
    const rewrite = await db('platform.audit_log')
      .where({ id: audit[0].id })
      .delete()
      .then(
        () => 'deleted',
        (err: Error) => err.message,
      );
    expect(rewrite).to.contain('append-only');

    // the API: the result is gone, the capture link too
    const result = await w
      .client('service')
      .encryptedRequest<SessionView>('POST', '/document_share_session/result', {
        dvcID: 'kyc-session',
        sessionId,
      });
    expect(result.status).to.equal(404);

    // the event, without personal data; a second call: the same tombstone, no second event
    const events = await eventually('the erasure event', () => {
      const seen = w.events.filter(
        (e) =>
          e.eventName === 'E_IDV_DATA_ERASED' &&
          (e.data as { subjectId?: string }).subjectId === sessionId,
      );
      return seen.length > 0 ? seen : undefined;
    });
    expect(events[0]!.data).to.deep.include({ subject: 'session', runs: [runId], dataKeys: 2 });
    expect(JSON.stringify(events)).to.not.contain(USER);
    const again = await erase({ sessionId });
    expect(again.status).to.equal(200);
    expect(again.body.tombstone).to.deep.equal(tombstone);
    await new Promise((resolve) => setTimeout(resolve, NO_SECOND_EVENT_MS));
    expect(
      w.events.filter(
        (e) =>
          e.eventName === 'E_IDV_DATA_ERASED' &&
          (e.data as { subjectId?: string }).subjectId === sessionId,
      ),
    ).to.have.length(1);
  });

  it('erases an async verification and a kept /verify result by their verificationId', async () => {
    const caller = w.client('service');
    const b64 = (b: Buffer) => b.toString('base64');
    const request = {
      dvcID: 'kyc-session',
      verifications: ['face_compare'],
      document: {
        id: 'erase-me',
        type: 'dl',
        image: b64(w.images.front),
        image2: b64(w.images.front),
        liveId: b64(w.images.selfie),
      },
    };
    const kept = await caller.encryptedRequest<VerifyResult>('POST', '/verify', request);
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    const keptId = kept.body.verificationId;
    expect((await caller.request('GET', `/verification/${keptId}`)).status).to.equal(200);
    const erased = await erase({ verificationId: keptId });
    expect(erased.status, JSON.stringify(erased.body)).to.equal(200);
    expect(erased.body.tombstone).to.deep.include({ subject: 'verification', runs: [] });
    expect(erased.body.tombstone.deleted).to.deep.equal({ verifications: 1, runs: 0 });
    expect(
      await w.platform.database.db('docverify.verifications').where({ id: keptId }),
    ).to.deep.equal([]);

    const { verificationId } = await caller.verifyAsync(request as never);
    await caller.waitForVerification(verificationId, { intervalMs: 100, timeoutMs: 30_000 });
    const asyncErased = await erase({ verificationId });
    expect(asyncErased.status, JSON.stringify(asyncErased.body)).to.equal(200);
    expect(asyncErased.body.tombstone).to.deep.include({ runs: [verificationId] });
    expect((await caller.request('GET', `/verification/${verificationId}`)).status).to.equal(404);
  });

  it('answers 400 to a body that names nothing or both, 404 to what the community does not hold', async () => {
    for (const body of [
      {},
      { verificationId: 'not-a-uuid' },
      { verificationId: randomUUID(), sessionId: randomUUID() },
      { sessionId: randomUUID(), extra: 1 },
      [],
    ]) {
      const res = await erase(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.have.property('error');
    }
    expect((await erase({ sessionId: randomUUID() })).status).to.equal(404);
    // another community's session: its licence cannot name ours, ours cannot reach theirs
    const sessionId = await completedSession();
    expect((await erase({ sessionId }, 'serviceElsewhere')).status).to.equal(403);
    expect((await erase({ sessionId }, 'service', w.platform.otherCommunity.id)).status).to.equal(
      403,
    );
    expect(
      await w.platform.database.db('docverify.sessions').where({ id: sessionId }),
    ).to.have.length(1);
  });

  it("survives a restore: a dump taken before the erasure, restored beside the keystore kept apart, does not open the person's data", async () => {
    const db = w.platform.database.db;
    const erasedId = await completedSession();
    const keptId = await completedSession();
    const erasedCase = await caseInReview();
    const keptCase = await caseInReview();
    const dir = mkdtempSync(join(tmpdir(), 'idv-restore-'));
    dirs.push(dir);
    // the data's backup, without the keystore (docs/operating.md: the keys are backed up apart)
    const dataDump = join(dir, 'data.dump');
    await run('pg_dump', [
      '--format=custom',
      '--exclude-schema=keys',
      '--file',
      dataDump,
      w.platform.database.url,
    ]);
    expect((await erase({ sessionId: erasedId })).status).to.equal(200);
    // erased in review: the case closes as erased, its note goes
    expect((await erase({ verificationId: erasedCase.verificationId })).status).to.equal(200);
    expect(
      await db('docverify.review_cases').where({ id: erasedCase.caseId }).first('state'),
    ).to.deep.equal({ state: 'erased' });
    // later: the data is restored into a fresh database from that backup, and the keystore from its
    // own latest backup
    const keysDump = join(dir, 'keys.dump');
    await run('pg_dump', [
      '--format=custom',
      '--schema=keys',
      '--file',
      keysDump,
      w.platform.database.url,
    ]);
    const restored = await createTestDatabase([]);
    try {
      for (const file of [dataDump, keysDump])
        await run('pg_restore', ['--no-owner', '--dbname', restored.url, file]);
      // the erased session's rows are back from the older backup, its keys are not
      const back = await restored.db('docverify.session_images').where({ session_id: erasedId });
      expect(back).to.have.length(3);
      const master = Buffer.from(w.platform.env.MASTER_KEY!, 'base64');
      const there = localKeyring(restored.db, master, w.platform.env.MASTER_KEYS_DIR!);
      for (const image of back)
        expect(
          await gone(
            there.openBytes(image.image_sealed, `session-image:${erasedId}:${image.side}`),
          ),
          image.side,
        ).to.equal('gone');
      // the other session opens there: the restore itself works
      const kept = await restored.db('docverify.session_images').where({ session_id: keptId });
      expect(kept).to.have.length(3);
      expect(
        await gone(
          there.openBytes(kept[0].image_sealed, `session-image:${keptId}:${kept[0].side}`),
        ),
      ).to.equal('opened');
      // the erased case is back in review with its note
      const caseRow = (id: string) =>
        restored
          .db('docverify.review_cases')
          .where({ id })
          .first('state', 'assignee', 'resubmission_sealed', 'closed_at');
      const notes = (id: string) => restored.db('docverify.review_notes').where({ case_id: id });
      const history = (id: string) =>
        restored.db('docverify.review_history').where({ case_id: id }).orderBy('id');
      expect(await caseRow(erasedCase.caseId)).to.include({
        state: 'in_review',
        assignee: 'testy-reviewer',
      });
      expect(await notes(erasedCase.caseId)).to.have.length(1);
      // the migrations every start runs delete the erased session's rows the old dump brought
      // back (its plain columns too), and keep the other's
      await migrateAll(restored.db, there);
      expect(await restored.db('docverify.sessions').where({ id: erasedId })).to.deep.equal([]);
      expect(
        await restored.db('docverify.session_images').where({ session_id: erasedId }),
      ).to.deep.equal([]);
      expect(await restored.db('docverify.sessions').where({ id: keptId })).to.have.length(1);
      // and close the erased case again as the erasure did (its note gone, its history kept with
      // a line of the restart's), keeping the other case as it was
      expect(
        await restored.db('docverify.verification_runs').where({ id: erasedCase.verificationId }),
      ).to.deep.equal([]);
      const closed = await caseRow(erasedCase.caseId);
      expect(closed).to.include({ state: 'erased', assignee: null, resubmission_sealed: null });
      expect(closed.closed_at).to.be.an.instanceOf(Date);
      expect(await notes(erasedCase.caseId)).to.deep.equal([]);
      const lines = await history(erasedCase.caseId);
      expect(lines.map((l) => l.action)).to.deep.equal([
        'opened',
        'claimed',
        'note_added',
        'erased',
      ]);
      expect(lines.at(-1)).to.include({
        actor: 'system',
        from_state: 'in_review',
        to_state: 'erased',
      });
      expect(await caseRow(keptCase.caseId)).to.include({
        state: 'in_review',
        assignee: 'testy-reviewer',
        closed_at: null,
      });
      expect(await notes(keptCase.caseId)).to.have.length(1);
      // a second start finds nothing more to close
      await migrateAll(restored.db, there);
      expect(await history(erasedCase.caseId)).to.have.length(4);

      // a keystore restored from a backup older than the erasure: the data's tombstones destroy
      // the keys again (what the migrate command runs at every start)
      const { tombstone } = (await db('docverify.erasures')
        .where({ subject_id: erasedId })
        .first()) as { tombstone: { dataKeys: string[] } };
      // (that older keystore still held them, and its ledger did not know them yet)
      await restored.db.raw('TRUNCATE keys.erased_data_keys');
      await restored.db('keys.data_keys').insert(
        tombstone.dataKeys.map((id) => ({
          id,
          kek_id: 'restored',
          wrapped: Buffer.alloc(60),
          owner_kind: 'session',
          owner_id: erasedId,
        })),
      );
      expect((await reapplyErasures(restored.db, tombstone.dataKeys)).sort()).to.deep.equal(
        [...tombstone.dataKeys].sort(),
      );
      expect(await restored.db('keys.data_keys').whereIn('id', tombstone.dataKeys)).to.deep.equal(
        [],
      );
    } finally {
      await restored.drop();
    }
  });
});
