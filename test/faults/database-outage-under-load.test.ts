// PostgreSQL taken away for IDV_FAULTS_OUTAGE_S seconds (10 by default) while callers keep
// creating webhooks and verifying: clear 503s with the error body meanwhile, recovery without a
// restart, and no half-written record: every webhook row there is opens whole through the API,
// and every create that was answered 200 is there, exactly as sent.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { testServers } from '@idv/db/testing';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../../services/connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../services/provider-sandbox/src/start.ts';
import { webhookBody } from '../../services/webhooks-gateway/test/support.ts';
import { deleteQueues } from '../support/amqpCleanup.ts';
import { startPlatform, type RunningPlatform } from '../support/platform.ts';
import {
  databaseOutage,
  outageMs,
  sleep,
  startLoad,
  tally,
  until,
  type Outage,
  type Outcome,
} from './support.ts';

const face = Buffer.from('FACE:testy').toString('base64');
const DEADLINE_MS = 15_000;

describe(`faults: PostgreSQL away for ${outageMs / 1000} s under load`, function () {
  this.timeout(180_000 + outageMs);
  const prefix = `test.dbload.${randomBytes(4).toString('hex')}`;
  let outage: Outage;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;

  before(async () => {
    outage = await databaseOutage((await testServers()).postgresUrl);
    sandbox = await startSandbox(0);
    // the services reach the suite's database through the outage; seeding and checks go direct
    platform = await startPlatform(
      { CONNECTOR_QUEUE_PREFIX: prefix, CONNECTOR_TIMEOUT_MS: '5000' },
      (databaseUrl) => {
        const through = new URL(databaseUrl);
        through.host = new URL(outage.url).host;
        return { DATABASE_URL: through.toString() };
      },
    );
    worker = await startConnectorWorker({
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_compare_b',
    });
    await worker.broker.waitUntilConnected(15_000);
    const c = platform.community;
    const admin = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    await admin.request('PUT', `/verifier/community/${c.id}`, {
      name: 'faces',
      tag: 'faces',
      type: 'face_compare_b',
      connectorUrl: sandbox.url,
      config: { apiKey: 'sandbox-key' },
    });
    await admin.request('PUT', `/verificationConfig/community/${c.id}`, {
      tenantId: c.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces' }],
    });
  });
  after(async () => {
    await outage?.start();
    await worker?.stop();
    await platform?.stop();
    await sandbox?.close();
    await outage?.close();
    if (platform) await deleteQueues(platform.env.AMQP_URL!, [`${prefix}.face_compare_b`]);
  });

  it('answers 503 meanwhile, recovers by itself, and leaves no half-written record', async () => {
    const c = platform.community;
    const base = `/tenant/${c.tenantId}/community/${c.id}`;
    const webhooks = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    });
    const caller = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.community,
    });
    let phase: 'before' | 'outage' | 'after' = 'before';
    let stopAfter = Number.POSITIVE_INFINITY;
    const phases = new Map<Outcome['body'], string>();
    const sent = new Map<Outcome['body'], { name: string; tags: string[] }>();
    const creates = startLoad(
      4,
      async (i) => {
        const named = { name: `hook ${i}`, tags: [`n${i}`] };
        const body = webhookBody(`https://hooks.example.test/${i}`, named);
        const res = await webhooks.request('PUT', `${base}/webhook`, body);
        phases.set(res.body, phase);
        sent.set(res.body, named);
        return res;
      },
      (o) => o.length >= stopAfter,
      DEADLINE_MS,
    );
    const verifications = startLoad(
      2,
      async () => {
        const res = await caller.encryptedRequest('POST', '/verify', {
          dvcID: 'kyc',
          verifications: ['face_compare'],
          document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
        });
        phases.set(res.body, phase);
        return res;
      },
      () => phase === 'after' && creates.outcomes.length >= stopAfter,
      DEADLINE_MS,
    );
    await until('writes before the outage', () => creates.outcomes.length >= 40);
    await outage.stop();
    phase = 'outage';
    await sleep(outageMs);
    const during = creates.outcomes.length;
    await outage.start();
    phase = 'after';
    await until(
      'writes taken again after the outage',
      () => creates.outcomes.slice(during).some((o) => o.status === 200),
      60_000,
    );
    stopAfter = creates.outcomes.length + 40;
    const [createOutcomes, verifyOutcomes] = await Promise.all([
      creates.finished,
      verifications.finished,
    ]);
    console.log(
      `      webhook creates ${JSON.stringify(tally(createOutcomes))}; /verify ${JSON.stringify(tally(verifyOutcomes))}`,
    );

    for (const outcomes of [createOutcomes, verifyOutcomes]) {
      expect(
        outcomes.filter((o) => o.status === -1),
        'hung requests',
      ).to.have.length(0);
      for (const o of outcomes.filter((x) => x.status !== 200)) {
        expect(o.status, JSON.stringify(o)).to.equal(503);
        expect(o.body).to.include({ statusCode: 503, error: 'Service Unavailable' });
      }
    }
    const inPhase = (outcomes: Outcome[], p: string, status: number) =>
      outcomes.filter((o) => phases.get(o.body) === p && o.status === status).length;
    expect(inPhase(createOutcomes, 'outage', 503)).to.be.greaterThan(0);
    expect(inPhase(verifyOutcomes, 'outage', 503)).to.be.greaterThan(0);
    expect(inPhase(createOutcomes, 'after', 200)).to.be.greaterThan(0);
    expect(inPhase(verifyOutcomes, 'after', 200)).to.be.greaterThan(0);

    // every row there opens whole through the API (sealed secrets included), every create
    // answered 200 is among them as sent, and none is left over beyond the unanswered creates
    const listed = new Map<string, { name: string; tags: string[] }>();
    for (let pIndex = 0; ; pIndex++) {
      const page = await webhooks.request<{
        page: { total: number };
        data: { _id: string; name: string; tags: string[] }[];
      }>('POST', `${base}/webhooks/fetch`, { pIndex, pSize: 100 });
      expect(page.status).to.equal(200);
      for (const w of page.body.data) listed.set(w._id, w);
      if (listed.size >= page.body.page.total || page.body.data.length === 0) break;
    }
    const rows = (await platform.database
      .db('webhooks.webhooks')
      .where({ community_id: c.id })
      .pluck('id')) as string[];
    expect([...listed.keys()].sort()).to.deep.equal([...rows].sort());
    const created = createOutcomes.filter((o) => o.status === 200);
    for (const o of created) {
      const { _id: id } = o.body as { _id: string };
      const body = sent.get(o.body)!;
      expect(listed.get(id), `created ${id}`).to.deep.include({ name: body.name, tags: body.tags });
    }
    const unanswered = createOutcomes.filter((o) => o.status !== 200).length;
    expect(rows.length).to.be.within(created.length, created.length + unanswered);
  });
});
