// Rate limits per licence and per community through real HTTP: 429 with Retry-After, RateLimit-Policy
// and RateLimit past a limit, other tenants unaffected, the community cap over its licences, a limit
// set by the admin CLI, and two gateway replicas sharing one bucket through PostgreSQL.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { LicenceStore, TenantStore } from '@idv/platform';
import { startDocverifyGateway } from '../services/docverify-gateway/src/start.ts';
import { credentialHeaders } from './support/independentClient.ts';
import { startPlatform, type RunningPlatform } from './support/platform.ts';

const ADMIN = new URL('../services/admin-cli/src/main.ts', import.meta.url).pathname;
const SYNC_MS = 50;
// 0.2 a second: one request every 5 s, so no test runs long enough to see a refill
const LIMITS = {
  RATE_LIMIT_LICENCE_RPS: '0.2',
  RATE_LIMIT_LICENCE_BURST: '5',
  RATE_LIMIT_COMMUNITY_RPS: '0.2',
  RATE_LIMIT_COMMUNITY_BURST: '8',
  RATE_LIMIT_SYNC_MS: String(SYNC_MS),
};

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

describe('rate limits per licence and per community', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let second: Awaited<ReturnType<typeof startDocverifyGateway>>;
  let servicePublicKey: string;

  /** a community of a tenant of its own with `count` service licences */
  const freshCommunity = async (count: number) => {
    const tenants = new TenantStore(platform.database.db);
    const tenant = await tenants.createTenant(`rl-${randomBytes(4).toString('hex')}`);
    const community = await tenants.createCommunity(
      tenant.id,
      `rl-${randomBytes(4).toString('hex')}`,
    );
    const store = new LicenceStore(platform.database.db);
    const licences = [];
    for (let i = 0; i < count; i++)
      licences.push(await store.create({ level: 'service', communityIds: [community.id] }));
    return { community, licences };
  };

  /** GET the community's verifiers (404 when it has none: the request got through) */
  const call = async (base: string, licenseKey: string, communityId: string): Promise<Answer> => {
    const res = await fetch(`${base}/verifier/community/${communityId}`, {
      headers: credentialHeaders({ licenseKey, servicePublicKey }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
  };
  const through = (answer: Answer) =>
    expect(answer.status, JSON.stringify(answer.body)).to.equal(404);
  const limited = (answer: Answer) =>
    expect(answer.status, JSON.stringify(answer.body)).to.equal(429);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 6 * SYNC_MS));

  before(async () => {
    platform = await startPlatform(LIMITS);
    second = await startDocverifyGateway(platform.env);
    const keys = await fetch(`${platform.services.docverify.url}/publickeys`);
    servicePublicKey = ((await keys.json()) as { publicKey: string }).publicKey;
  });
  after(async () => {
    await second?.stop();
    await platform?.stop();
  });

  it('one licence over its limit gets 429 with Retry-After, RateLimit-Policy and RateLimit; another tenant is unaffected', async () => {
    const base = platform.services.docverify.url;
    const { community, licences } = await freshCommunity(1);
    const key = licences[0]!.licenseKey;
    for (let i = 0; i < 5; i++) {
      const answer = await call(base, key, community.id);
      through(answer);
      expect(answer.headers.get('ratelimit-policy')).to.equal(
        '"licence";q=5;w=25, "community";q=8;w=40',
      );
      expect(answer.headers.get('ratelimit')).to.match(
        new RegExp(`^"licence";r=${4 - i};t=\\d+, "community";r=${7 - i};t=\\d+$`),
      );
    }
    const refused = await call(base, key, community.id);
    limited(refused);
    expect(refused.body).to.deep.equal({
      statusCode: 429,
      error: 'Too Many Requests',
      message: refused.body.message,
    });
    expect(refused.body.message).to.match(/rate limit of this licence reached .*retry after \d+ s/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 5);
    expect(refused.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=5;w=25, "community";q=8;w=40',
    );
    expect(refused.headers.get('ratelimit')).to.match(
      /^"licence";r=0;t=\d+, "community";r=3;t=\d+$/,
    );

    // a licence of another tenant's community, on this replica and the other
    const other = await freshCommunity(1);
    through(await call(base, other.licences[0]!.licenseKey, other.community.id));
    through(await call(second.server.url, other.licences[0]!.licenseKey, other.community.id));
    limited(await call(base, key, community.id));
  });

  it('the community limit caps the sum of its licences', async () => {
    const base = platform.services.docverify.url;
    const { community, licences } = await freshCommunity(2);
    const [first, next] = licences.map((l) => l.licenseKey) as [string, string];
    for (let i = 0; i < 5; i++) through(await call(base, first, community.id));
    limited(await call(base, first, community.id));
    for (let i = 0; i < 3; i++) through(await call(base, next, community.id));
    // its own licence has 2 left; the community, 8 at once, has none
    const refused = await call(base, next, community.id);
    limited(refused);
    expect(refused.body.message).to.contain(`rate limit of community ${community.id} reached`);
    expect(refused.headers.get('ratelimit')).to.match(
      /^"licence";r=2;t=\d+, "community";r=0;t=\d+$/,
    );
  });

  it('a limit set by the admin CLI takes effect, for a licence and for a community', async function () {
    this.timeout(120_000); // four admin CLI processes
    const base = platform.services.docverify.url;
    const env = { ...process.env, ...platform.env };
    const admin = async (...args: string[]) =>
      JSON.parse(
        (await promisify(execFile)(process.execPath, ['--import', 'tsx', ADMIN, ...args], { env }))
          .stdout,
      ) as Record<string, unknown>;

    const { community, licences } = await freshCommunity(1);
    const key = licences[0]!.licenseKey;
    const capped = await freshCommunity(1);
    through(await call(base, key, community.id));
    const cap = ['--community', capped.community.id];
    const [set, capSet] = await Promise.all([
      admin('ratelimit', 'set', '--licence', key, '--rps', '0.1', '--burst', '2'),
      admin('ratelimit', 'set', ...cap, '--rps', '0.1', '--burst', '3'),
    ]);
    expect(set).to.deep.include({
      scope: 'licence',
      id: licences[0]!.licence.id,
      rps: 0.1,
      burst: 2,
    });
    expect(capSet).to.deep.include({
      scope: 'community',
      id: capped.community.id,
      rps: 0.1,
      burst: 3,
    });
    await settle();

    // 4 of 5 were left; the bucket now holds at most 2
    for (let i = 0; i < 2; i++) through(await call(base, key, community.id));
    const refused = await call(base, key, community.id);
    limited(refused);
    expect(refused.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=2;w=20, "community";q=8;w=40',
    );

    // a community capped below the default: its licence gets 3, not 5
    const cappedKey = capped.licences[0]!.licenseKey;
    for (let i = 0; i < 3; i++) through(await call(base, cappedKey, capped.community.id));
    const full = await call(base, cappedKey, capped.community.id);
    limited(full);
    expect(full.body.message).to.contain(`community ${capped.community.id}`);
    expect(full.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=5;w=25, "community";q=3;w=30',
    );

    const [shown, one] = await Promise.all([
      admin('ratelimit', 'show'),
      admin('ratelimit', 'show', '--licence', licences[0]!.licence.id),
    ]);
    expect(shown.defaults).to.deep.equal({
      licence: { rps: 0.2, burst: 5 },
      community: { rps: 0.2, burst: 8 },
    });
    expect(shown.limits).to.deep.include.members([set, capSet]);
    expect(one).to.deep.equal({ ...set, source: 'operator' });
    const unset = await admin('ratelimit', 'unset', '--licence', key);
    expect(unset).to.deep.include({ removed: true, rps: 0.2, burst: 5, source: 'default' });
  });

  it('two gateway replicas share one bucket through PostgreSQL', async () => {
    const [a, b] = [platform.services.docverify.url, second.server.url];
    const { community, licences } = await freshCommunity(1);
    const key = licences[0]!.licenseKey;
    for (let i = 0; i < 3; i++) through(await call(a, key, community.id));
    // replica b learns of a's requests within a sync (RATE_LIMIT_SYNC_MS)
    await settle();
    const seen = await call(b, key, community.id);
    through(seen);
    expect(seen.headers.get('ratelimit')).to.match(/^"licence";r=1;t=\d+/);
    through(await call(b, key, community.id));
    limited(await call(b, key, community.id));
    await settle();
    const refused = await call(a, key, community.id);
    limited(refused);
    expect(refused.headers.get('retry-after')).to.match(/^[1-5]$/);
  });
});
