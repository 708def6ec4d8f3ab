// Two replicas of one gateway on one database: the replay log and the service key are shared,
// so a requestid used at one replica is refused at the other.
import { expect } from 'chai';
import { startDocverifyGateway } from '../services/docverify-gateway/src/start.ts';
import { credentialHeaders } from '@idv/testing/independentClient';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

describe('gateway replicas', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let second: Awaited<ReturnType<typeof startDocverifyGateway>>;

  before(async () => {
    platform = await startPlatform();
    second = await startDocverifyGateway(platform.env);
  });
  after(async () => {
    await second?.stop();
    await platform?.stop();
  });

  it('share the service key and refuse a requestid replayed at the other replica', async () => {
    const first = platform.services.docverify.url;
    const keyAt = async (base: string) =>
      ((await (await fetch(`${base}/publickeys`)).json()) as { publicKey: string }).publicKey;
    const servicePublicKey = await keyAt(first);
    expect(await keyAt(second.server.url)).to.equal(servicePublicKey);

    const headers = credentialHeaders({ licenseKey: platform.licences.system, servicePublicKey });
    expect((await fetch(`${first}/servicekeys`, { headers })).status).to.equal(200);
    const replay = await fetch(`${second.server.url}/servicekeys`, { headers });
    expect(replay.status).to.equal(401);
    expect(((await replay.json()) as { message: string }).message).to.match(/replay/);
  });
});
