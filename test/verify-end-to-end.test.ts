// POST /verify end to end: gateway -> RabbitMQ -> a connector worker per type -> provider sandbox,
// for each type of the list a match and a mismatch of each row of its kit
// (@idv/testing/connectors/<type>); failover to the second verifier; the event.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createBroker, type Broker } from '@idv/broker';
import { IdvClient } from '@idv/client';
import { verifyMessage } from '@idv/crypto';
import { CONNECTOR_TYPES, workerQueues, type EventEnvelope } from '@idv/contracts';
import { createLogger } from '@idv/observability';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../services/connector-worker/src/start.ts';
import { faces, key } from '@idv/testing/connectors/fixtures';
import { testKits } from '@idv/testing/connectors/kit';
import { startSandbox, type RunningSandbox } from '../services/provider-sandbox/src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { eventually } from '@idv/testing/eventually';

/**
 * Checks a certification's proof as anyone holding the docverify key from /publickeys would: a
 * compact ES256K JWS, verified by node:crypto (verifyMessage), not by the libsecp256k1 signer.
 */
async function proofVerifies(docverifyUrl: string, proof: string): Promise<boolean> {
  const { publicKey } = (await (await fetch(`${docverifyUrl}/publickeys`)).json()) as {
    publicKey: string;
  };
  const [header, payload, signature] = proof.split('.');
  if (!header || !payload || !signature) return false;
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  const raw = Buffer.from(signature, 'base64url').toString('base64');
  return alg === 'ES256K' && verifyMessage(publicKey, `${header}.${payload}`, raw);
}

/** Every row of every type's kit, each under its verifier tag (the type's name unless given). */
const CASES = (await testKits()).flatMap((kit) =>
  kit.endToEnd.map((row) => ({ ...row, type: kit.type, tag: row.tag ?? kit.type })),
);

describe('POST /verify end to end through the workers and the provider sandbox', function () {
  this.timeout(120_000);
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let workers: RunningWorker[];
  let admin: IdvClient;
  let caller: IdvClient;
  let listener: Broker;
  const events: EventEnvelope[] = [];
  const eventsQueue = `test.e2e.events.${randomBytes(4).toString('hex')}`;

  const prefix = `test.e2e.${randomBytes(4).toString('hex')}`;

  before(async () => {
    sandbox = await startSandbox(0);
    platform = await startPlatform({
      CONNECTOR_QUEUE_PREFIX: prefix,
      VERIFY_DEADLINE_MS: '8000',
    });
    const workerEnv = {
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
    };
    workers = await Promise.all(
      CONNECTOR_TYPES.map((type) => startConnectorWorker({ ...workerEnv, CONNECTOR_TYPE: type })),
    );
    await Promise.all(workers.map((w) => w.broker.waitUntilConnected(15_000)));

    listener = createBroker({
      url: platform.env.AMQP_URL!,
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    await listener.subscribeEvents(eventsQueue, ['E_IDV_DOCUMENT_VALIDATE'], (event) => {
      if (event.communityId === platform.community.id) events.push(event);
    });

    const base = platform.services.docverify.url;
    admin = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
    caller = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
    const c = platform.community.id;
    for (const t of CASES) {
      const { tag } = t;
      const res = await admin.request('PUT', `/verifier/community/${c}`, {
        name: tag,
        tag,
        type: t.type,
        connectorUrl: sandbox.url,
        config: t.config(sandbox.url),
      });
      expect(res.status, t.type).to.equal(200);
      const cfg = await admin.request('PUT', `/verificationConfig/community/${c}`, {
        tenantId: platform.community.tenantId,
        tag: `cfg-${tag}`,
        [t.kind]: [{ verifier: tag }],
      });
      expect(cfg.status, t.type).to.equal(200);
    }
  });
  after(async () => {
    await listener?.close();
    await Promise.all((workers ?? []).map((w) => w.stop()));
    await platform?.stop();
    await sandbox?.close();
    await deleteQueues(platform.env.AMQP_URL!, [
      eventsQueue,
      ...CONNECTOR_TYPES.flatMap((t) => workerQueues(t, prefix)),
    ]);
  });

  const verify = async (dvcID: string, kind: string, document: Record<string, unknown>) => {
    const res = await caller.encryptedRequest<{
      status: string;
      certifications: { kind: string; verified: boolean; authority: string; proof: string }[];
    }>('POST', '/verify', {
      dvcID,
      verifications: [kind],
      document: { id: 'doc-1', type: 'dl', ...document },
    });
    return res;
  };

  for (const t of CASES) {
    it(`${t.type} ${t.kind}: verified for the match, not verified for the mismatch`, async () => {
      const good = await verify(`cfg-${t.tag}`, t.kind, await t.match());
      expect(good.status, JSON.stringify(good.body)).to.equal(200);
      expect(good.body.status).to.equal('verified');
      expect(good.body.certifications[0]).to.include({ kind: t.kind, verified: true });
      const proof = good.body.certifications[0]!.proof;
      expect(await proofVerifies(platform.services.docverify.url, proof)).to.equal(true);
      const [header, payload] = proof.split('.');
      const forged = `${header}.${Buffer.from('{"verified":true}').toString('base64url')}.${proof.split('.')[2]}`;
      expect(await proofVerifies(platform.services.docverify.url, forged)).to.equal(false);
      expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).to.include({
        kind: t.kind,
        verified: true,
      });
      const bad = await verify(`cfg-${t.tag}`, t.kind, await t.mismatch());
      expect(bad.status, JSON.stringify(bad.body)).to.equal(200);
      expect(bad.body.status).to.equal('not_verified');
    });
  }

  it('fails over from a verifier whose provider is down to the next one', async () => {
    const c = platform.community.id;
    await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'down',
      tag: 'faces-down',
      type: 'face_compare_b',
      connectorUrl: `${sandbox.url}/fault/status=503`,
      config: { apiKey: key },
    });
    const cfg = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'failover',
      face_compare: [{ verifier: 'faces-down' }, { verifier: 'face_cloud' }],
    });
    expect(cfg.status).to.equal(200);
    const res = await verify('failover', 'face_compare', faces('testy', 'testy'));
    expect(res.status).to.equal(200);
    expect(res.body.certifications[0]).to.include({ verified: true, authority: 'face_cloud' });
    const metrics = await (await fetch(`${platform.services.docverify.url}/metrics`)).text();
    expect(metrics).to.match(/docverify_failovers_total\{[^}]*kind="face_compare"[^}]*\} [1-9]/);
  });

  it('publishes E_IDV_DOCUMENT_VALIDATE without personal data after dl_authenticate', async () => {
    const event = await eventually('an event of the community', () => events[0], 10_000);
    expect(event.data).to.include({ docType: 'dl' });
    expect(JSON.stringify(events)).not.to.match(/McTestface|000-00-0000|19700101/i);
  });
});
