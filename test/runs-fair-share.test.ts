// Tenant isolation of the verification runs (issue 25, finding 1): community B floods async
// /verify runs, more than a gateway has slots, against its own verifier at a closed port. A's
// async run and A's submitted session still complete promptly: B gets its share of the slots
// (RUNS_PER_COMMUNITY, here a quarter of 16), a run over it is parked in the broker instead of a
// slot, and B's runs give up their slots between retries (parked until their backoff passed), so
// they end failed after their bounded retries, not by holding slots until their deadline.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION, type VerifyRequest } from '@idv/contracts';
import { freePort } from './support/freePort.ts';
import { eventually, startSessionWorld, type SessionWorld } from './support/sessionWorld.ts';

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
    const verifier = await b.request('PUT', `/verifier/community/${other.id}`, { name: 'dead faces', tag: 'deadfaces', type: 'face_compare_b', connectorUrl: closed, config: { apiKey: 'sandbox-key' } });
    const config = await b.request('PUT', `/verificationConfig/community/${other.id}`, { tenantId: other.tenantId, tag: 'kyc-b', face_compare: [{ verifier: 'deadfaces' }] });
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
  }); // prettier-ignore
  after(async () => w?.stop());

  const faces = (w: SessionWorld, dvcID: string, id: string): VerifyRequest => ({
    dvcID,
    verifications: dvcID === 'kyc-b' ? ['face_compare'] : ['face_compare', 'face_liveness'],
    document: { id, type: 'selfie', liveId: w.images.selfie.toString('base64'), image2: Buffer.from('FACE:testy').toString('base64') },
  }); // prettier-ignore

  /** A session of A with every side captured, ready to submit. */
  async function capturedSession(): Promise<{ sessionId: string; submit: () => Promise<number> }> {
    const caller = w.client('service');
    const created = await caller.createSession('kyc-session', { tenantDNS: 'bank.example', communityName: w.platform.community.name, userUID: 'user-testy-fair' });
    const page = w.page(new URL(created.url).pathname.split('/').at(-1)!);
    expect((await page.get('/session')).status).to.equal(200);
    expect((await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION })).status).to.equal(200);
    expect((await page.post('/document-type', { documentType: 'DL' })).status).to.equal(200);
    for (const [side, bytes, type] of [['front', w.images.front, 'image/png'], ['back', w.images.back, 'image/png'], ['selfie', w.images.selfie, 'image/jpeg']] as const)
      expect((await page.put(side, bytes, type)).body, side).to.deep.include({ accepted: true });
    return { sessionId: created.sessionId, submit: async () => (await page.post('/submit')).status };
  } // prettier-ignore

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
    const ended = await eventually('B runs to end', async () => {
      const rows = (await db('docverify.verification_runs').whereIn('id', ids)) as { status: string; failure: string | null; starts: number; created_at: Date; ended_at: Date | null }[];
      return rows.every((r) => r.status !== 'processing') ? rows : undefined;
    }, 25_000); // prettier-ignore
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
