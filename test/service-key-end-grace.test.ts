// An operator ends the grace of a replaced service key at once (a key believed leaked), through
// POST /servicekeys/end-grace (system licence) or `admin servicekey end-grace`: requests made with
// the replaced key are refused (401) at once on the service called, on another replica within its
// key re-read, and the current key keeps working.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startDocverifyGateway } from '../services/docverify-gateway/src/start.ts';
import { CachingCaller, publishedKeys, resetServiceKey } from '@idv/testing/serviceKeyCallers';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';
import { eventually } from '@idv/testing/eventually';

const SERVICES = ['oauth', 'docverify', 'webhooks'] as const;
const ADMIN = new URL('../services/admin-cli/src/main.ts', import.meta.url).pathname;
/** a replica re-reads the keys every 5 s */
const REFRESH_MS = 5000;
const run = promisify(execFile);

interface GraceEnded {
  service: string;
  publicKey: string;
  ended: { publicKey: string; acceptedUntil: string }[];
}

/** Polls until `call` answers `status`; the ms it took. */
async function answersWithin(call: () => Promise<Response>, status: number, ms: number) {
  const start = Date.now();
  await eventually(`an answer ${status}`, async () => (await call()).status === status, {
    timeoutMs: ms,
    intervalMs: 200,
  });
  return Date.now() - start;
}

describe('service key rotation: an operator ends the grace at once', function () {
  this.timeout(90_000);
  let platform: RunningPlatform;
  let replica: Awaited<ReturnType<typeof startDocverifyGateway>>;
  const base = (service: (typeof SERVICES)[number]) => platform.services[service].url;

  before(async () => {
    // the default grace: 48 h
    platform = await startPlatform();
    replica = await startDocverifyGateway(platform.env);
  });
  after(async () => {
    await replica?.stop();
    await platform?.stop();
  });

  for (const service of SERVICES) {
    it(`${service}: POST /servicekeys/end-grace refuses the replaced key at once, the current key still passes`, async () => {
      const { system, service: serviceLicence } = platform.licences;
      const cached = await CachingCaller.at(base(service), system);
      const newKey = await resetServiceKey(base(service), system);
      expect((await cached.call('GET', '/servicekeys')).status, 'in its grace').to.equal(200);

      const admin = await CachingCaller.at(base(service), system);
      const low = await CachingCaller.at(base(service), serviceLicence);
      expect((await low.call('POST', '/servicekeys/end-grace')).status).to.equal(403);
      const res = await admin.call('POST', '/servicekeys/end-grace');
      expect(res.status).to.equal(200);
      const body = (await res.json()) as GraceEnded;
      expect(body).to.include({ service, publicKey: newKey });
      expect(body.ended.map((e) => e.publicKey)).to.deep.equal([cached.servicePublicKey]);

      const refused = await cached.call('GET', '/servicekeys');
      expect(refused.status).to.equal(401);
      expect(((await refused.json()) as { message: string }).message).to.match(/\/publickeys/);
      expect((await publishedKeys(base(service))).previousKeys).to.deep.equal([]);
      expect((await admin.call('GET', '/servicekeys')).status).to.equal(200);
      // nothing left to end
      const again = (await (
        await admin.call('POST', '/servicekeys/end-grace')
      ).json()) as GraceEnded;
      expect(again.ended).to.deep.equal([]);
    });
  }

  it('docverify: an encrypted /verify made with the replaced key is refused at once, and on another replica within its re-read', async () => {
    const { system, service: serviceLicence } = platform.licences;
    const oldKey = (await publishedKeys(base('docverify'))).publicKey;
    const here = new CachingCaller(base('docverify'), oldKey, serviceLicence);
    const there = new CachingCaller(replica.server.url, oldKey, serviceLicence);
    await resetServiceKey(base('docverify'), system);
    const verify = (caller: CachingCaller) =>
      caller.call('POST', '/verify', caller.sealed({ dvcID: 'kyc', verifications: [] }));
    // in the grace the credentials pass (the request itself is then refused as invalid: 400)
    await answersWithin(() => verify(there), 400, REFRESH_MS + 3000);
    expect((await verify(here)).status).to.equal(400);

    const admin = await CachingCaller.at(base('docverify'), system);
    expect((await admin.call('POST', '/servicekeys/end-grace')).status).to.equal(200);
    expect((await verify(here)).status, 'the replica that ended it').to.equal(401);
    // within its re-read (and slack for a busy machine): no timed bound tighter than that
    await answersWithin(() => verify(there), 401, REFRESH_MS + 3000);
  });

  it('docverify: `admin servicekey end-grace` ends it on the running replicas within their re-read', async () => {
    const { system } = platform.licences;
    const cachedHere = await CachingCaller.at(base('docverify'), system);
    const cachedThere = new CachingCaller(replica.server.url, cachedHere.servicePublicKey, system);
    const newKey = await resetServiceKey(base('docverify'), system);
    await answersWithin(() => cachedThere.call('GET', '/servicekeys'), 200, REFRESH_MS + 3000);

    const env = {
      ...process.env,
      DATABASE_URL: platform.env.DATABASE_URL,
      MASTER_KEY: platform.env.MASTER_KEY,
    };
    const args = ['--import', 'tsx', ADMIN, 'servicekey', 'end-grace', '--service', 'docverify'];
    const { stdout } = await run(process.execPath, args, { env });
    const ended = JSON.parse(stdout) as GraceEnded;
    expect(ended).to.include({ service: 'docverify', publicKey: newKey });
    expect(ended.ended.map((e) => e.publicKey)).to.deep.equal([cachedHere.servicePublicKey]);

    for (const caller of [cachedHere, cachedThere])
      await answersWithin(() => caller.call('GET', '/servicekeys'), 401, REFRESH_MS + 3000);
    const fresh = await CachingCaller.at(replica.server.url, system);
    expect((await fresh.call('GET', '/servicekeys')).status).to.equal(200);
  });
});
