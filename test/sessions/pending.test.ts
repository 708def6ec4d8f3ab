// Pending outcomes: a run whose connector answered "not final yet" for a kind stays pending (its
// session processing, GET /verification saying so); settlePendingKind, called here directly as the
// follow-up transport calls it, re-signs that kind's certification, recomputes the status and
// ends the run, its session and their events. The last case runs the whole journey: the sandbox's
// agent decides the document review seconds after the submit, the worker's poll brings it in.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import amqp from 'amqplib';
import { createBroker, type Broker } from '@idv/broker';
import {
  CONSENT_TEXT_VERSION,
  followUpAnswersWaitQueue,
  type EventEnvelope,
  type FollowUpAnswer,
  type SessionView,
  type VerificationView,
  type VerifyRequest,
  type VerifyResult,
} from '@idv/contracts';
import { verifyMessage } from '@idv/crypto';
import { EventOutbox } from '@idv/db';
import { createLogger } from '@idv/observability';
import { localKeyring, ServiceKeyStore } from '@idv/platform';
import { RunStore, type RunRecord } from '../../services/docverify-gateway/src/runs/runStore.ts';
import { SessionImageStore } from '../../services/docverify-gateway/src/sessions/sessionImageStore.ts';
import { SessionStore } from '../../services/docverify-gateway/src/sessions/sessionStore.ts';
import { VerificationConfigStore } from '../../services/docverify-gateway/src/verificationConfigs/verificationConfigStore.ts';
import {
  settlePendingKind,
  type SettleDeps,
} from '../../services/docverify-gateway/src/followUps/pending.ts';
import { recordRunResult } from '../../services/docverify-gateway/src/runs/recordRun.ts';
import {
  certify,
  proofSigner,
} from '../../services/docverify-gateway/src/verify/runVerification.ts';
import { png } from '@idv/samples/captureImages';
import { licenceFront } from '@idv/samples/idDocuments';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describe('pending outcomes: a run waits for a follow-up, settlePendingKind ends it', function () {
  this.timeout(90_000);
  let w: SessionWorld;
  let deps: SettleDeps;
  let broker: Broker;

  before(async () => {
    w = await startSessionWorld({ name: 'pending', agentReview: true });
    const db = w.platform.database.db;
    const masterKey = Buffer.from(w.platform.env.MASTER_KEY!, 'base64');
    const logger = createLogger({ service: 'test', level: 'silent' });
    broker = createBroker({ url: w.platform.env.AMQP_URL!, logger });
    await broker.waitUntilConnected(10_000);
    const keyring = localKeyring(db, masterKey, w.platform.env.MASTER_KEYS_DIR!);
    const images = new SessionImageStore(db, keyring, w.clock);
    const keys = new ServiceKeyStore(db, keyring, 'docverify');
    deps = {
      runs: new RunStore(db, keyring, w.clock),
      sessions: new SessionStore(db, images, w.clock),
      configs: new VerificationConfigStore(db),
      outbox: new EventOutbox<EventEnvelope>(
        db,
        'docverify.event_outbox',
        (e) => broker.publishEvent(e),
        logger,
      ),
      clock: w.clock,
      serviceKey: async () => (await keys.currentKey()).key,
    };
  });
  after(async () => {
    await broker?.close();
    await w?.stop();
  });

  /**
   * An event published after whatever the calls before it published, through the same broker: once
   * it is seen, an event they published is seen too (one publisher, one queue, in order).
   */
  async function marker(): Promise<void> {
    const { community } = w.platform;
    const event: EventEnvelope = {
      eventId: randomUUID(),
      eventName: 'E_IDV_FACE_VALIDATE',
      version: 1,
      tenantId: community.tenantId,
      communityId: community.id,
      ts: Date.now(),
      data: { verificationId: randomUUID(), dvcID: 'marker', status: 'verified' },
    };
    await broker.publishEvent(event);
    await eventually('the marker event', () => w.events.some((e) => e.eventId === event.eventId));
  }

  /** How many messages wait in `queue` now (none taken). */
  async function waiting(queue: string): Promise<number> {
    const connection = await amqp.connect(w.platform.env.AMQP_URL!);
    try {
      return (await (await connection.createChannel()).checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  }

  const config = async () =>
    (await deps.configs.find([w.platform.community.id], 'kyc-session'))[0]!;

  /** A run's result as the connectors answered: `pending` kinds not final yet, the others verified. */
  async function answered(
    runId: string,
    kinds: string[],
    pending: string[],
  ): Promise<VerifyResult> {
    const key = await deps.serviceKey();
    const proof = proofSigner(key, runId, 'kyc-session');
    const certifications = kinds.map((kind) =>
      certify(
        kind as never,
        {
          reply: pending.includes(kind)
            ? {
                outcome: 'completed',
                authority: 'agent_review',
                result: {
                  verified: false,
                  status: 'pending',
                  reasons: ['review_pending'],
                  followUp: { reviewId: `rv-${kind}` },
                } as never,
              }
            : {
                outcome: 'completed',
                authority: 'face_compare_b',
                result: { verified: true, status: 'verified', reasons: [] },
              },
          verifier: { tag: pending.includes(kind) ? 'review' : 'faces' },
        },
        proof,
      ),
    );
    return {
      verificationId: runId,
      docId: 'doc-p',
      docType: 'dl',
      dvcID: 'kyc-session',
      status: 'not_verified',
      certifications,
    };
  }

  const newRun = async (
    kind: 'async_verify' | 'session',
    sessionId: string | null,
    request?: VerifyRequest,
  ): Promise<RunRecord> => {
    const c = await config();
    const id = randomUUID();
    await deps.runs.create(
      {
        id,
        communityId: c.communityId,
        tenantId: c.tenantId,
        configId: c.id,
        dvcID: 'kyc-session',
        kind,
        sessionId,
        ownerLicenceId: null,
        deadline: new Date(Date.now() + 60_000),
      },
      request,
    );
    return (await deps.runs.start(id))!;
  };

  const approved = {
    outcome: 'completed' as const,
    authority: 'agent_review',
    result: { verified: true, status: 'verified' as const, reasons: [] },
  };

  it('an async run stays pending until the follow-up; then completed, re-signed, with its events', async () => {
    const request: VerifyRequest = {
      dvcID: 'kyc-session',
      verifications: ['dl_authenticate', 'face_compare'],
      document: {
        id: 'doc-p',
        type: 'dl',
        front_image: 'RkFDRTp0ZXN0eQ==',
        liveId: 'RkFDRTp0ZXN0eQ==',
        image2: 'RkFDRTp0ZXN0eQ==',
      },
    };
    const run = await newRun('async_verify', null, request);
    const result = await answered(run.id, ['dl_authenticate', 'face_compare'], ['dl_authenticate']);
    expect(await recordRunResult(deps, run, await config(), result, ['processing'])).to.equal(
      'pending',
    );
    const caller = w.client('service');
    expect(await caller.verification(run.id)).to.deep.equal({
      verificationId: run.id,
      status: 'pending',
    });
    const stored = await deps.runs.get(run.id);
    expect(stored?.pending?.dl_authenticate).to.deep.include({
      verifier: 'review',
      followUp: { reviewId: 'rv-dl_authenticate' },
    });
    // parked, it keeps what the follow-up compares, not the images
    expect(await deps.runs.request(run.id)).to.deep.equal({
      ...request,
      document: { id: 'doc-p', type: 'dl' },
    });

    expect(await settlePendingKind(deps, run.id, 'dl_authenticate', approved)).to.equal(
      'completed',
    );
    const view: VerificationView = await caller.verification(run.id);
    expect(view.status).to.equal('completed');
    expect(view.result?.status).to.equal('verified');
    const settled = view.result!.certifications.find((c) => c.kind === 'dl_authenticate')!;
    expect(settled).to.include({
      verified: true,
      status: 'verified',
      authority: 'agent_review',
      verifier: 'review',
    });
    const { publicKey } = (await (await fetch(`${w.url}/publickeys`)).json()) as {
      publicKey: string;
    };
    const [header, payload, signature] = settled.proof.split('.') as [string, string, string];
    expect(
      verifyMessage(
        publicKey,
        `${header}.${payload}`,
        Buffer.from(signature, 'base64url').toString('base64'),
      ),
    ).to.equal(true);
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).to.include({
      verificationId: run.id,
      kind: 'dl_authenticate',
      status: 'verified',
    });
    const event = await eventually('the completion event', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_VERIFICATION_COMPLETED' &&
          (e.data as { verificationId: string }).verificationId === run.id,
      ),
    );
    expect(event.data).to.include({ status: 'verified' });
    await eventually('the document event', () =>
      w.events.find(
        (e) =>
          e.eventName === 'E_IDV_DOCUMENT_VALIDATE' &&
          (e.data as { verificationId: string }).verificationId === run.id,
      ),
    );
    expect(
      await settlePendingKind(deps, run.id, 'dl_authenticate', approved),
      'a second follow-up',
    ).to.equal('not_pending');
    expect(await deps.runs.request(run.id), 'the request is dropped at the end').to.equal(
      undefined,
    );
  });

  it('two kinds followed up at once: both settle, the run completes once', async () => {
    const run = await newRun('async_verify', null);
    await recordRunResult(
      deps,
      run,
      await config(),
      await answered(
        run.id,
        ['dl_authenticate', 'face_compare'],
        ['dl_authenticate', 'face_compare'],
      ),
      ['processing'],
    );
    const declined = {
      ...approved,
      result: { verified: false, status: 'not_verified' as const, reasons: ['faces_differ'] },
    };
    const outcomes = await Promise.all([
      settlePendingKind(deps, run.id, 'dl_authenticate', approved),
      settlePendingKind(deps, run.id, 'face_compare', declined),
    ]);
    expect(outcomes.sort()).to.deep.equal(['completed', 'pending']);
    const view = await w.client('service').verification(run.id);
    expect(view.result?.status).to.equal('not_verified');
    expect(view.result?.certifications.map((c) => [c.kind, c.status])).to.deep.equal([
      ['dl_authenticate', 'verified'],
      ['face_compare', 'not_verified'],
    ]);
    await marker();
    expect(
      w.events.filter(
        (e) =>
          e.eventName === 'E_IDV_VERIFICATION_COMPLETED' &&
          (e.data as { verificationId: string }).verificationId === run.id,
      ),
    ).to.have.length(1);
  });

  it("a session's run pending keeps it processing (INPROGRESS); the follow-up completes it", async () => {
    const caller = w.client('service');
    const { sessionId, url } = await caller.createSession('kyc-session', { documentType: 'DL' });
    const page = w.page(tokenOf(url));
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    for (const side of ['front', 'back'] as const) await page.put(side, w.images[side]);
    await page.put('selfie', w.images.selfie, 'image/jpeg');
    // the submission and the run's start, as submit and the runs queue do them
    const run = await newRun('session', sessionId);
    await deps.sessions.move(sessionId, 'submitted', { patch: { run_id: run.id } });
    await deps.sessions.move(sessionId, 'processing');
    const kinds = ['dl_authenticate', 'document_liveness', 'face_compare', 'face_liveness'];
    expect(
      await recordRunResult(
        deps,
        run,
        await config(),
        await answered(run.id, kinds, ['dl_authenticate']),
        ['processing'],
      ),
    ).to.equal('pending');
    expect(await caller.sessionResult('kyc-session', sessionId)).to.include({
      status: 'INPROGRESS',
      state: 'processing',
    });

    expect(await settlePendingKind(deps, run.id, 'dl_authenticate', approved)).to.equal(
      'completed',
    );
    const done: SessionView = await caller.waitForSession('kyc-session', sessionId, {
      intervalMs: 100,
      timeoutMs: 10_000,
    });
    expect(done).to.include({ status: 'COMPLETED', verificationId: run.id });
    expect((done.result as VerifyResult).status).to.equal('verified');
    const completed = await eventually(
      'E_IDV_SESSION_COMPLETED',
      () => w.eventsNamed('E_IDV_SESSION_COMPLETED', sessionId)[0],
    );
    expect(completed.data).to.include({ verificationId: run.id, status: 'verified' });
    expect(
      await w.platform.database.db('docverify.session_images').where({ session_id: sessionId }),
    ).to.have.length(0);
  });

  it('a follow-up answer that comes before its run is parked waits for it, then settles it', async () => {
    const run = await newRun('async_verify', null);
    const answer: FollowUpAnswer = {
      verificationId: run.id,
      kind: 'dl_authenticate',
      verifierTag: 'review',
      via: 'poll',
      answeredAt: Date.now(),
      reply: approved,
    };
    await broker.publish('', w.platform.env.DOCVERIFY_FOLLOWUPS_QUEUE!, answer);
    const queue = followUpAnswersWaitQueue(w.platform.env.DOCVERIFY_FOLLOWUPS_QUEUE!);
    await eventually('the answer put to wait for its run', async () => (await waiting(queue)) > 0);
    expect((await deps.runs.get(run.id))?.status, 'still processing, the answer waits').to.equal(
      'processing',
    );
    await recordRunResult(
      deps,
      run,
      await config(),
      await answered(run.id, ['dl_authenticate'], ['dl_authenticate']),
      ['processing'],
    );
    const done = await eventually('the run completed by the waiting answer', async () => {
      const now = await deps.runs.get(run.id);
      return now?.status === 'completed' ? now : undefined;
    });
    expect(done.pending).to.equal(null);
  });

  it('a session whose document review the agent decides seconds later ends completed', async () => {
    const caller = w.client('service');
    const { sessionId, url } = await caller.createSession('kyc-agent', { documentType: 'DL' });
    const page = w.page(tokenOf(url));
    await page.get('/session');
    await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
    const front = await png(licenceFront(), 'DOC:testy', 'FACE:testy', 'REVIEW:3000');
    // each side accepted, or the verdict's problems say why the submit would be refused
    for (const [side, bytes, type] of [
      ['front', front, 'image/png'],
      ['back', w.images.back, 'image/png'],
      ['selfie', w.images.selfie, 'image/jpeg'],
    ] as const)
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    const submitted = await page.post('/submit');
    expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);

    const waiting = await eventually('the run pending', async () => {
      const view = await caller.sessionResult('kyc-agent', sessionId);
      const run = view.verificationId ? await deps.runs.get(view.verificationId) : undefined;
      return run?.status === 'pending' ? { view, run } : undefined;
    });
    expect(waiting.view).to.include({ status: 'INPROGRESS', state: 'processing' });
    expect(Object.keys(waiting.run.pending ?? {})).to.deep.equal(['dl_authenticate']);
    const done: SessionView = await caller.waitForSession('kyc-agent', sessionId, {
      intervalMs: 200,
      timeoutMs: 20_000,
    });
    expect(done).to.include({ status: 'COMPLETED', state: 'completed' });
    const result = done.result as VerifyResult;
    expect(result.status).to.equal('verified');
    expect(result.certifications.find((c) => c.kind === 'dl_authenticate')).to.include({
      status: 'verified',
      verifier: 'agent',
    });
    const completed = await eventually(
      'E_IDV_SESSION_COMPLETED',
      () => w.eventsNamed('E_IDV_SESSION_COMPLETED', sessionId)[0],
    );
    expect(completed.data).to.include({ status: 'verified' });
  });
});
