// RabbitMQ going away and coming back: services keep answering /healthz (broker reported down),
// keep serving what needs only PostgreSQL, and reconnect by themselves.
import { expect } from 'chai';
import { testAmqpUrl } from '@idv/testing/testServers';
import { IdvClient } from '@idv/client';
import { credentialHeaders } from '@idv/testing/independentClient';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { TcpProxy } from '@idv/testing/tcpProxy';
import { eventually } from '@idv/testing/eventually';

interface HealthBody {
  status: string;
  code: string;
  checks: Record<string, string>;
}

/** /healthz answers 200 throughout; waits until it reports the broker `broker`. */
const waitForHealth = (url: string, broker: 'up' | 'down'): Promise<HealthBody> =>
  eventually(
    `${url} to report the broker ${broker}`,
    async () => {
      const res = await fetch(`${url}/healthz`);
      expect(res.status).to.equal(200);
      const body = (await res.json()) as HealthBody;
      return body.checks.broker === broker ? body : undefined;
    },
    { intervalMs: 200 },
  );

describe('broker outage', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let proxy: TcpProxy;

  before(async () => {
    const target = new URL(await testAmqpUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5672));
    target.host = `127.0.0.1:${proxy.port}`;
    platform = await startPlatform({ AMQP_URL: target.toString(), VERIFY_DEADLINE_MS: '5000' });
    const admin = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    const c = platform.community.id;
    await admin.request('PUT', `/verifier/community/${c}`, {
      name: 'faces',
      tag: 'faces',
      type: 'face_compare_b',
      connectorUrl: 'http://127.0.0.1:9/none',
      config: {},
    });
    await admin.request('PUT', `/verificationConfig/community/${c}`, {
      tenantId: platform.community.tenantId,
      tag: 'kyc',
      face_compare: [{ verifier: 'faces' }],
    });
  });
  after(async () => {
    proxy?.restore();
    await platform?.stop();
    await proxy?.close();
  });

  it('reports the broker down meanwhile and up again afterwards, without a restart', async () => {
    const urls = Object.values(platform.services).map((s) => s.url);
    for (const url of urls) expect((await waitForHealth(url, 'up')).status).to.equal('ok');

    proxy.cut();
    for (const url of urls) {
      const body = await waitForHealth(url, 'down');
      expect(body).to.deep.include({ status: 'degraded', code: '503' });
      expect(body.checks.database).to.equal('up');
    }
    const base = platform.services.docverify.url;
    const publicKey = ((await (await fetch(`${base}/publickeys`)).json()) as { publicKey: string })
      .publicKey;
    const res = await fetch(`${base}/servicekeys`, {
      headers: credentialHeaders({
        licenseKey: platform.licences.system,
        servicePublicKey: publicKey,
      }),
    });
    expect(res.status).to.equal(200);

    // what needs the broker answers a clear 503 at once instead of hanging
    const caller = new IdvClient({ baseUrl: base, licenseKey: platform.licences.community });
    const started = Date.now();
    const verify = await caller.encryptedRequest<{ statusCode: number }>('POST', '/verify', {
      dvcID: 'kyc',
      verifications: ['face_compare'],
      document: { id: 'doc-1', type: 'dl', image1: 'AAAA', image2: 'AAAA' },
    });
    expect(verify.status).to.equal(503);
    expect(verify.body.statusCode).to.equal(503);
    expect(Date.now() - started).to.be.below(2000);
    const { community } = platform;
    const intake = await new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    }).request<{ statusCode: number }>(
      'PUT',
      `/tenant/${community.tenantId}/community/${community.id}/event/E_IDV_DOCUMENT_VALIDATE`,
      { dvcID: 'kyc', docType: 'dl', status: 'verified' },
    );
    expect(intake.status).to.equal(503);

    // the outage lasts through refused reconnect attempts, as many as two per service, before it ends
    const refused = proxy.refused;
    await eventually(
      'reconnect attempts refused',
      () => proxy.refused >= refused + 2 * urls.length,
    );
    proxy.restore();
    for (const url of urls) expect((await waitForHealth(url, 'up')).status).to.equal('ok');
  });
});
