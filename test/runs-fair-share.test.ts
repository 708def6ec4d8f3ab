// Tenant isolation of the verification runs (issue 25, finding 1): community B floods async
// /verify runs, more than a gateway has slots, against its own verifier at a closed port. A's
// async run and A's submitted session still complete promptly: B gets its share of the slots
// (RUNS_PER_COMMUNITY, here a quarter of 16), a run over it is parked in the broker instead of a
// slot, and B's runs give up their slots between retries (parked until their backoff passed), so
// they end failed after their bounded retries, not by holding slots until their deadline.
//
// And per tenant (review of issue 25): tenant B with four communities, each flooding runs whose
// verifier never answers (a connector queue no worker takes from), held the gateway's 16 slots
// with four runs per community; its communities together now hold at most the tenant's share.
import { expect } from 'chai';
import amqp from 'amqplib';
import { IdvClient } from '@idv/client';
import { connectorQueue, CONSENT_TEXT_VERSION, type VerifyRequest } from '@idv/contracts';
import { LicenceStore, TenantStore } from '@idv/platform';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { freePort } from '@idv/testing/freePort';
import { eventually, startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

const B_RUNS = 40; // more than the 16 slots of the gateway
const RETRIES = 2;

describe('verification runs: a community flooding its dead verifier does not stall another', function () {
  this.timeout(120_000);
  let w: SessionWorld;

  before(async () => {
    w = await startSessionWorld({
      name: 'fair-share',
      platform: {
        ASYNC_VERIFY_DEADLINE_MS: '30000',
        RUN_RETRIES: String(RETRIES),
        RUN_RETRY_FIRST_MS: '1000',
        RUN_RETRY_MAX_MS: '1000',
      },
    });
    // B: a verifier of the same connector type as A's, its provider at a port nobody listens on
    const b = w.client('serviceElsewhere');
    const other = w.platform.otherCommunity;
    const closed = `http://127.0.0.1:${await freePort()}`;
    const verifier = await b.request('PUT', `/verifier/community/${other.id}`, {
      name: 'dead faces',
      tag: 'deadfaces',
      type: 'face_compare_b',
      connectorUrl: closed,
      config: { apiKey: 'sandbox-key' },
    });
    const config = await b.request('PUT', `/verificationConfig/community/${other.id}`, {
      tenantId: other.tenantId,
      tag: 'kyc-b',
      face_compare: [{ verifier: 'deadfaces' }],
    });
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
  });
  after(async () => w?.stop());

  const faces = (w: SessionWorld, dvcID: string, id: string): VerifyRequest => ({
    dvcID,
    verifications: dvcID === 'kyc-b' ? ['face_compare'] : ['face_compare', 'face_liveness'],
    document: {
      id,
      type: 'selfie',
      liveId: w.images.selfie.toString('base64'),
      image2: Buffer.from('FACE:testy').toString('base64'),
    },
  });

  /** A session of A with every side captured, ready to submit. */
  async function capturedSession(): Promise<{ sessionId: string; submit: () => Promise<number> }> {
    const caller = w.client('service');
    const created = await caller.createSession('kyc-session', {
      tenantDNS: 'bank.example',
      communityName: w.platform.community.name,
      userUID: 'user-testy-fair',
    });
    const page = w.page(new URL(created.url).pathname.split('/').at(-1)!);
    expect((await page.get('/session')).status).to.equal(200);
    expect(
      (await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION })).status,
    ).to.equal(200);
    expect((await page.post('/document-type', { documentType: 'DL' })).status).to.equal(200);
    for (const [side, bytes, type] of [
      ['front', w.images.front, 'image/png'],
      ['back', w.images.back, 'image/png'],
      ['selfie', w.images.selfie, 'image/jpeg'],
    ] as const)
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    return {
      sessionId: created.sessionId,
      submit: async () => (await page.post('/submit')).status,
    };
  }

  it("completes A's async run and session in seconds while B's runs fail after their retries", async () => {
    const a = w.client('service');
    const b = w.client('serviceElsewhere');
    const session = await capturedSession();

    const flood = await Promise.all(
      Array.from({ length: B_RUNS }, (_, i) => b.verifyAsync(faces(w, 'kyc-b', `doc-b-${i}`))),
    );
    const started = Date.now();
    const [{ verificationId }, submitted] = await Promise.all([
      a.verifyAsync(faces(w, 'kyc-session', 'doc-a')),
      session.submit(),
    ]);
    expect(submitted).to.equal(200);
    const [run, sessionDone] = await Promise.all([
      a.waitForVerification(verificationId, { intervalMs: 50, timeoutMs: 30_000 }),
      a.waitForSession('kyc-session', session.sessionId, { intervalMs: 50, timeoutMs: 30_000 }),
    ]);
    const tookMs = Date.now() - started;
    expect(run.status).to.equal('completed');
    expect(run.result?.status).to.equal('verified');
    expect(sessionDone.status).to.equal('COMPLETED');
    // before: ~the whole run deadline, B's runs sleeping in every slot between their retries
    expect(tookMs, "A's run and session").to.be.below(5000);

    // B's runs end failed, each after its first try and RETRIES retries, well before their deadline
    const db = w.platform.database.db;
    const ids = flood.map((f) => f.verificationId);
    const ended = await eventually(
      'B runs to end',
      async () => {
        const rows = (await db('docverify.verification_runs').whereIn('id', ids)) as {
          status: string;
          failure: string | null;
          starts: number;
          created_at: Date;
          ended_at: Date | null;
        }[];
        return rows.every((r) => r.status !== 'processing') ? rows : undefined;
      },
      25_000,
    );
    expect(new Set(ended.map((r) => `${r.status}:${r.failure}`))).to.deep.equal(
      new Set(['failed:no_verifier_in_time']),
    );
    expect(new Set(ended.map((r) => r.starts))).to.deep.equal(new Set([1 + RETRIES]));
    const view = await b.verification(ids[0]!);
    expect(view).to.include({ status: 'failed', failure: 'no_verifier_in_time' });

    const metrics = await (await fetch(`${w.url}/metrics`)).text();
    expect(metrics).to.match(/docverify_runs_parked_total\{reason="fair_share"[^}]*\} [1-9]/);
    expect(metrics).to.match(/docverify_runs_parked_total\{reason="retry"[^}]*\} [1-9]/);
  });
});

describe('verification runs: a tenant with many communities holds no more than its share', function () {
  this.timeout(150_000);
  const COMMUNITIES = 4;
  const RUNS_EACH = 6; // 24 in all, more than the 16 slots
  let w: SessionWorld;
  let flooder: IdvClient;
  let stalled: string;

  before(async () => {
    // a try of B waits RUN_ATTEMPT_MS for its connector: far longer than the test looks
    w = await startSessionWorld({
      name: 'tenant-share',
      platform: { ASYNC_VERIFY_DEADLINE_MS: '120000', RUN_ATTEMPT_MS: '90000', RUN_RETRIES: '0' },
    });
    const db = w.platform.database.db;
    const tenantId = w.platform.otherCommunity.tenantId;
    const tenants = new TenantStore(db);
    const communities = [w.platform.otherCommunity];
    for (let i = 1; i < COMMUNITIES; i++)
      communities.push(await tenants.createCommunity(tenantId, `${communities[0]!.name}-${i}`));
    const licence = await new LicenceStore(db).create({
      level: 'service',
      communityIds: communities.map((c) => c.id),
    });
    flooder = new IdvClient({ baseUrl: w.url, licenseKey: licence.licenseKey });
    // B's verifiers' connector type has no worker here: its jobs wait in a queue nobody takes from
    stalled = connectorQueue('face_compare_a', w.platform.env.CONNECTOR_QUEUE_PREFIX);
    const connection = await amqp.connect(w.platform.env.AMQP_URL!);
    await (await connection.createChannel()).assertQueue(stalled, { durable: false });
    await connection.close();
    for (const [i, c] of communities.entries()) {
      const verifier = await flooder.request('PUT', `/verifier/community/${c.id}`, {
        name: 'stalled faces',
        tag: 'stalled',
        type: 'face_compare_a',
        connectorUrl: w.sandbox.url,
        config: {},
      });
      const config = await flooder.request('PUT', `/verificationConfig/community/${c.id}`, {
        tenantId,
        tag: `kyc-t${i}`,
        face_compare: [{ verifier: 'stalled' }],
      });
      expect(
        [verifier.status, config.status],
        JSON.stringify([verifier.body, config.body]),
      ).to.deep.equal([200, 200]);
    }
  });
  after(async () => {
    await w?.stop();
    if (stalled) await deleteQueues(w.platform.env.AMQP_URL!, [stalled]);
  });

  it("keeps A's async run prompt while B's four communities flood runs that never get an answer", async () => {
    const flood = await Promise.all(
      Array.from({ length: COMMUNITIES * RUNS_EACH }, (_, i) =>
        flooder.verifyAsync({
          dvcID: `kyc-t${i % COMMUNITIES}`,
          verifications: ['face_compare'],
          document: {
            id: `doc-t${i}`,
            type: 'selfie',
            liveId: w.images.selfie.toString('base64'),
            image2: Buffer.from('FACE:testy').toString('base64'),
          },
        }),
      ),
    );
    const db = w.platform.database.db;
    const ids = flood.map((f) => f.verificationId);
    const startedOfB = async () =>
      Number(
        (
          (await db('docverify.verification_runs')
            .whereIn('id', ids)
            .where('starts', '>', 0)
            .count({ n: '*' })
            .first()) as { n: string }
        ).n,
      );
    // B's tries that got a slot hold it: wait until they did
    await eventually('B runs in their slots', async () =>
      (await startedOfB()) >= 4 ? true : undefined,
    );

    const a = w.client('service');
    const { verificationId } = await a.verifyAsync({
      dvcID: 'kyc-session',
      verifications: ['face_compare', 'face_liveness'],
      document: {
        id: 'doc-a',
        type: 'selfie',
        liveId: w.images.selfie.toString('base64'),
        image2: Buffer.from('FACE:testy').toString('base64'),
      },
    });
    // before: B's 16 tries held every slot for RUN_ATTEMPT_MS (90 s), A's run waited behind them
    const run = await a.waitForVerification(verificationId, { intervalMs: 50, timeoutMs: 30_000 });
    expect(run.status).to.equal('completed');
    // B's communities together were held to the tenant's share (a quarter of 16), none tried twice
    expect(await startedOfB()).to.equal(4);
    const metrics = await (await fetch(`${w.url}/metrics`)).text();
    expect(metrics).to.match(/docverify_runs_parked_total\{reason="fair_share"[^}]*\} [1-9]/);
  });
});
