// A community's image URL hosts (set with `admin community image-hosts`) bound what face_cloud
// fetches for /verify: a URL on a listed host is fetched, one on another host is refused with a 400
// naming the rule before any request reaches that host, and a community without a list still
// fetches from any host the SSRF guard allows. The worker refuses such a job on its own too.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createBroker } from '@idv/broker';
import { IdvClient } from '@idv/client';
import { connectorQueue, type ConnectorReply } from '@idv/contracts';
import { createSecretBox } from '@idv/crypto';
import { testAmqpUrl } from '@idv/testing/testServers';
import { createLogger } from '@idv/observability';
import {
  startConnectorWorker,
  type RunningWorker,
} from '../services/connector-worker/src/start.ts';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY } from '../services/provider-sandbox/src/fixtures.ts';
import { startSandbox, type RunningSandbox } from '../services/provider-sandbox/src/start.ts';
import { deleteQueues } from '@idv/testing/amqpCleanup';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

/**
 * Room for a refused request's images to be fetched all the same. A fixed wait is the only proof: a
 * refused request leaves no trace, and the worker takes several jobs at once, so the fetches of a
 * request sent after are not surely made after a wrong one's.
 */
const NO_FETCH_MS = 300;
const ADMIN = new URL('../services/admin-cli/src/main.ts', import.meta.url).pathname;
const run = promisify(execFile);

/** Serves the sandbox's face images (`/FACE:testy`) and counts requests by Host. */
async function startImageHost(): Promise<{ port: number; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(String(req.headers.host).replace(/:\d+$/, ''));
    const text = decodeURIComponent((req.url ?? '/').slice(1));
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.from(text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits, server };
}

interface VerifyAnswer {
  status: string;
  certifications: { kind: string; verified: boolean; status: string }[];
}

describe('image URL hosts of a community (face_cloud fetches image URLs)', function () {
  this.timeout(90_000);
  const prefix = `test.imagehosts.${randomBytes(4).toString('hex')}`;
  let platform: RunningPlatform;
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let images: Awaited<ReturnType<typeof startImageHost>>;
  let listed: IdvClient;
  let unlisted: IdvClient;

  const url = (host: string, face = 'testy') => `http://${host}:${images.port}/FACE:${face}`;
  const body = (image1Url: string, image2Url: string) => ({
    dvcID: 'kyc',
    verifications: ['face_compare'],
    document: { id: 'doc-1', type: 'dl', image1Url, image2Url },
  });

  /** a face_cloud verifier and config `kyc` in the licence's community */
  async function configure(licence: string, communityId: string, tenantId: string) {
    const client = new IdvClient({ baseUrl: platform.services.docverify.url, licenseKey: licence });
    const verifier = await client.request('PUT', `/verifier/community/${communityId}`, {
      name: 'cloud',
      tag: 'cloud',
      type: 'face_cloud',
      connectorUrl: sandbox.url,
      config: { awsAccessKey: CLOUD_ACCESS_KEY, awsSecretKey: CLOUD_SECRET_KEY },
    });
    const config = await client.request('PUT', `/verificationConfig/community/${communityId}`, {
      tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'cloud' }],
    });
    expect([verifier.status, config.status]).to.deep.equal([200, 200]);
    return client;
  }

  before(async () => {
    images = await startImageHost();
    sandbox = await startSandbox(0);
    platform = await startPlatform({ CONNECTOR_QUEUE_PREFIX: prefix });
    worker = await startConnectorWorker({
      AMQP_URL: platform.env.AMQP_URL!,
      MASTER_KEY: platform.env.MASTER_KEY!,
      LOG_LEVEL: 'silent',
      CONNECTOR_QUEUE_PREFIX: prefix,
      CONNECTOR_TYPE: 'face_cloud',
    });
    await worker.broker.waitUntilConnected(15_000);
    const { community, otherCommunity, licences } = platform;
    listed = await configure(licences.service, community.id, community.tenantId);
    unlisted = await configure(
      licences.serviceElsewhere,
      otherCommunity.id,
      otherCommunity.tenantId,
    );

    const env = {
      ...process.env,
      DATABASE_URL: platform.env.DATABASE_URL,
      MASTER_KEY: platform.env.MASTER_KEY,
    };
    const args = [
      'community',
      'image-hosts',
      '--community',
      community.id,
      '--hosts',
      '127.0.0.1,*.images.example',
    ];
    const { stdout } = await run(process.execPath, ['--import', 'tsx', ADMIN, ...args], { env });
    expect(JSON.parse(stdout)).to.deep.equal({
      community: community.id,
      imageUrlHosts: ['127.0.0.1', '*.images.example'],
    });
  });
  after(async () => {
    await worker?.stop();
    await platform?.stop();
    await sandbox?.close();
    await new Promise((resolve) => images?.server.close(resolve));
    await deleteQueues(await testAmqpUrl(), [`${prefix}.face_cloud`]);
  });

  it('fetches image URLs on a listed host', async () => {
    const before = images.hits.length;
    const res = await listed.encryptedRequest<VerifyAnswer>(
      'POST',
      '/verify',
      body(url('127.0.0.1'), url('127.0.0.1')),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal('verified');
    expect(images.hits.slice(before)).to.deep.equal(['127.0.0.1', '127.0.0.1']);
  });

  it('refuses an image URL on another host with a 400 naming the rule, before any request reaches it', async () => {
    const before = images.hits.length;
    const res = await listed.encryptedRequest<{
      message: string;
      details: { path: string; message: string }[];
    }>('POST', '/verify', body(url('127.0.0.1'), url('localhost')));
    expect(res.status).to.equal(400);
    expect(res.body.message).to.match(/image2Url names host localhost.*image URL hosts/);
    expect(res.body.details.map((d) => d.path)).to.deep.equal(['/document/image2Url']);
    await new Promise((resolve) => setTimeout(resolve, NO_FETCH_MS));
    expect(images.hits.slice(before)).to.deep.equal([]);
  });

  it('leaves a community without a list to the SSRF guard alone', async () => {
    const before = images.hits.length;
    const res = await unlisted.encryptedRequest<VerifyAnswer>(
      'POST',
      '/verify',
      body(url('localhost'), url('localhost', 'fakey')),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal('not_verified');
    expect(images.hits.slice(before).sort()).to.deep.equal(['localhost', 'localhost']);
  });

  it('the worker refuses a job whose image URL names a host its list lacks, calling nothing', async () => {
    const before = images.hits.length;
    const jobId = randomBytes(8).toString('hex');
    const box = createSecretBox(Buffer.from(platform.env.MASTER_KEY!, 'base64'));
    const document = { image1Url: url('localhost'), image2Url: url('127.0.0.1') };
    const config = { awsAccessKey: CLOUD_ACCESS_KEY, awsSecretKey: CLOUD_SECRET_KEY };
    const job = {
      jobId,
      kind: 'face_compare',
      verifier: { id: 'v-1', tag: 'cloud', type: 'face_cloud', connectorUrl: sandbox.url },
      sealed: box.seal(JSON.stringify({ config, document }), jobId),
      options: { returnRawData: false, debug: false },
      deadline: Date.now() + 8000,
      sentAt: Date.now(),
      context: { tenantId: 't-1', communityId: 'c-1', dvcID: 'kyc' },
      imageUrlHosts: ['127.0.0.1'],
    };
    // as a gateway sends it: the job's own list, whatever the community's list says now
    const gateway = createBroker({
      url: platform.env.AMQP_URL!,
      logger: createLogger({ service: 'test-gateway', level: 'silent' }),
    });
    await gateway.waitUntilConnected(10_000);
    const reply = (await gateway
      .request(connectorQueue('face_cloud', prefix), job, { timeoutMs: 8000 })
      .finally(() => gateway.close())) as ConnectorReply;
    expect(reply.outcome).to.equal('invalid_request');
    expect(reply.error?.code).to.equal('image_host_not_allowed');
    expect(reply.error?.message).to.match(/image1Url names host localhost/);
    expect(images.hits.slice(before)).to.deep.equal([]);
  });
});
