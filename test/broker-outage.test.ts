// RabbitMQ going away and coming back: services keep answering /healthz (broker reported down),
// keep serving what needs only PostgreSQL, and reconnect by themselves.
import { expect } from 'chai';
import { testAmqpUrl } from '@idv/db/testing';
import { credentialHeaders } from './support/independentClient.ts';
import { startPlatform, type RunningPlatform } from './support/platform.ts';
import { TcpProxy } from './support/tcpProxy.ts';

interface HealthBody {
  status: string;
  code: string;
  checks: Record<string, string>;
}

async function waitForHealth(
  url: string,
  broker: 'up' | 'down',
  timeoutMs = 20_000,
): Promise<HealthBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/healthz`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as HealthBody;
    if (body.checks.broker === broker) return body;
    if (Date.now() > deadline)
      throw new Error(`broker never reported ${broker}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('broker outage', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let proxy: TcpProxy;

  before(async () => {
    const target = new URL(await testAmqpUrl());
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5672));
    target.host = `127.0.0.1:${proxy.port}`;
    platform = await startPlatform({ AMQP_URL: target.toString() });
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

    await new Promise((resolve) => setTimeout(resolve, 1500));
    proxy.restore();
    for (const url of urls) expect((await waitForHealth(url, 'up')).status).to.equal('ok');
  });
});
