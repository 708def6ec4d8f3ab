// POST /verify reads its config and verifiers from a short cache: a change made through the gateway
// is used by the very next /verify, and a config made on another replica is found there at once.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import type { StartedService } from '@idv/service-runtime';
import { startConnectorWorker, type RunningWorker } from '../../connector-worker/src/start.ts';
import { startSandbox, type RunningSandbox } from '../../provider-sandbox/src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { startDocverifyGateway } from '../src/start.ts';

const face = Buffer.from('FACE:testy').toString('base64');

interface Verified {
  status: string;
  certifications: { verifier: string; status: string }[];
}

describe('docverify gateway: /verify sees configuration changes', function () {
  this.timeout(60_000);
  const prefix = `test.lookups.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let replica: StartedService;
  let admin: IdvClient;
  let caller: IdvClient;
  let atReplica: IdvClient;
  let c: string;

  const verify = (client: IdvClient, dvcID = 'kyc') =>
    client.encryptedRequest<Verified>('POST', '/verify', {
      dvcID,
      verifications: ['face_compare'],
      document: { id: 'doc-1', type: 'dl', image1: face, image2: face },
    });
  const verifier = (tag: string) => ({
    name: tag,
    tag,
    type: 'face_compare_b',
    connectorUrl: sandbox.url,
    config: { apiKey: 'sandbox-key' },
  });

  before(async () => {
    sandbox = await startSandbox(0);
    platform = await startPlatform({ CONNECTOR_QUEUE_PREFIX: prefix });
    replica = await startDocverifyGateway(platform.env);
    worker = await startConnectorWorker({
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_compare_b',
    });
    await worker.broker.waitUntilConnected(15_000);
    await replica.runtime.broker.waitUntilConnected(15_000);
    const base = platform.services.docverify.url;
    c = platform.community.id;
    admin = new IdvClient({ baseUrl: base, licenseKey: platform.licences.service });
    caller = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
    atReplica = new IdvClient({
      baseUrl: replica.server.url,
      licenseKey: platform.licences.community,
    });
    for (const tag of ['faces', 'faces2'])
      expect(
        (await admin.request('PUT', `/verifier/community/${c}`, verifier(tag))).status,
      ).to.equal(200);
    const made = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces' }],
    });
    expect(made.status).to.equal(200);
  });
  after(async () => {
    await worker?.stop();
    await replica?.stop();
    await platform?.stop();
    await sandbox?.close();
    if (platform) await deleteQueues(platform.env.AMQP_URL!, [`${prefix}.face_compare_b`]);
  });

  it('uses a verifier change, a config change and a deletion at the next /verify', async () => {
    const first = await verify(caller);
    expect(first.status).to.equal(200);
    expect(first.body.status).to.equal('verified');

    const wrongKey = await admin.request('PATCH', `/verifier/community/${c}/faces`, {
      config: { apiKey: 'not-the-key' },
    });
    expect(wrongKey.status).to.equal(200);
    const refused = await verify(caller);
    expect(refused.status).to.equal(200);
    expect(refused.body.status).to.equal('not_verified');
    expect(refused.body.certifications[0]?.status).to.equal('rejected');

    const moved = await admin.request('PATCH', `/verificationConfig/community/${c}/kyc`, {
      face_compare: [{ verifier: 'faces2' }],
    });
    expect(moved.status).to.equal(200);
    const second = await verify(caller);
    expect(second.body.status).to.equal('verified');
    expect(second.body.certifications[0]?.verifier).to.equal('faces2');

    expect((await admin.request('DELETE', `/verifier/community/${c}/faces2`)).status).to.equal(204);
    expect((await verify(caller)).status).to.equal(503);

    expect(
      (await admin.request('DELETE', `/verificationConfig/community/${c}/kyc`)).status,
    ).to.equal(204);
    expect((await verify(caller)).status).to.equal(404);
  });

  it('finds a config made on another replica at once, although it missed it just before', async () => {
    expect((await verify(atReplica, 'later')).status).to.equal(404);
    const fresh = await admin.request('PUT', `/verifier/community/${c}`, verifier('faces3'));
    expect(fresh.status).to.equal(200);
    const made = await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'later',
      face_compare: [{ verifier: 'faces3' }],
    });
    expect(made.status).to.equal(200);
    const res = await verify(atReplica, 'later');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('verified');
    expect(res.body.certifications[0]?.verifier).to.equal('faces3');
  });
});
