// After the grace a service key reset gave, the replaced key is refused on every service (401 that
// says where the current key is), while the new key keeps working and /publickeys lists no
// previous key.
import { expect } from 'chai';
import { CachingCaller, publishedKeys, resetServiceKey } from '@idv/testing/serviceKeyCallers';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const SERVICES = ['oauth', 'docverify', 'webhooks'] as const;
const GRACE_SECONDS = 2;

describe('service key rotation: the end of the grace', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;

  before(async () => {
    platform = await startPlatform({ SERVICE_KEY_GRACE_SECONDS: String(GRACE_SECONDS) });
  });
  after(async () => platform?.stop());

  for (const service of SERVICES) {
    it(`${service}: the old key passes until the grace ends, then 401; the new key passes`, async () => {
      const base = platform.services[service].url;
      const { system } = platform.licences;
      const cached = await CachingCaller.at(base, system);
      await resetServiceKey(base, system);

      const during = await cached.call('GET', '/servicekeys');
      expect(during.status).to.equal(200);
      const until = Date.parse(during.headers.get('service-key-accepted-until') ?? '');
      expect(until).to.be.closeTo(Date.now() + GRACE_SECONDS * 1000, 1500);

      await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 100));
      const after = await cached.call('GET', '/servicekeys');
      expect(after.status).to.equal(401);
      expect(((await after.json()) as { message: string }).message).to.match(/\/publickeys/);
      expect((await publishedKeys(base)).previousKeys).to.deep.equal([]);
      const fresh = await CachingCaller.at(base, system);
      expect((await fresh.call('GET', '/servicekeys')).status).to.equal(200);
    });
  }
});
