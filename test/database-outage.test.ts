// PostgreSQL going away under the services: clear 503s with the error body, /healthz reports the
// database down, and everything works again afterwards without a restart.
import { expect } from 'chai';
import { testServers } from '@idv/testing/testServers';
import { credentialHeaders } from '@idv/testing/independentClient';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { TcpProxy } from '@idv/testing/tcpProxy';
import { eventually } from '@idv/testing/eventually';

describe('database outage', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let proxy: TcpProxy;

  before(async () => {
    const server = new URL((await testServers()).postgresUrl);
    proxy = await TcpProxy.start(server.hostname, Number(server.port || 5432));
    // the services reach the suite's database through the proxy; seeding goes direct
    platform = await startPlatform({}, (databaseUrl) => {
      const proxied = new URL(databaseUrl);
      proxied.host = `127.0.0.1:${proxy.port}`;
      return { DATABASE_URL: proxied.toString() };
    });
  });
  after(async () => {
    proxy?.restore();
    await platform?.stop();
    await proxy?.close();
  });

  it('answers 503 while PostgreSQL is unreachable and recovers by itself', async () => {
    const base = platform.services.webhooks.url;
    const servicePublicKey = (
      (await (await fetch(`${base}/publickeys`)).json()) as { publicKey: string }
    ).publicKey;
    const call = () =>
      fetch(`${base}/servicekeys`, {
        headers: credentialHeaders({ licenseKey: platform.licences.system, servicePublicKey }),
      });
    expect((await call()).status).to.equal(200);

    proxy.cut();
    const res = await call();
    expect(res.status).to.equal(503);
    expect(await res.json()).to.include({ statusCode: 503 });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).to.equal(200);
    expect(((await health.json()) as { checks: Record<string, string> }).checks.database).to.equal(
      'down',
    );

    proxy.restore();
    await eventually('a 200 once the database is back', async () => (await call()).status === 200, {
      intervalMs: 250,
    });
  });
});
