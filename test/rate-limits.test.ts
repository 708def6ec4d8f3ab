// Rate limits per licence, per community and per tenant through real HTTP: 429 with Retry-After
// (held RATE_LIMIT_REFUSAL_HOLD_MS before it is answered),
// RateLimit-Policy and RateLimit past a limit, other tenants unaffected, the community cap over its
// licences, the tenant cap over its communities' licences, a route naming no community charging no
// community of a licence covering several, nothing written for a 429 (its request id unspent) and a
// replay spending no budget, limits set by the admin CLI, and two gateway replicas sharing one bucket
// through PostgreSQL.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { LicenceStore, TenantStore } from '@idv/platform';
import { startDocverifyGateway } from '../services/docverify-gateway/src/start.ts';
import { credentialHeaders } from '@idv/testing/independentClient';
import { startPlatform, type RunningPlatform } from '@idv/testing/platform';

const ADMIN = new URL('../services/admin-cli/src/main.ts', import.meta.url).pathname;
const SYNC_MS = 50;
const HOLD_MS = 300;
// 0.2 a second: one request every 5 s, so no test runs long enough to see a refill
const LIMITS = {
  RATE_LIMIT_LICENCE_RPS: '0.2',
  RATE_LIMIT_LICENCE_BURST: '5',
  RATE_LIMIT_COMMUNITY_RPS: '0.2',
  RATE_LIMIT_COMMUNITY_BURST: '8',
  RATE_LIMIT_TENANT_RPS: '0.2',
  RATE_LIMIT_TENANT_BURST: '12',
  RATE_LIMIT_SYNC_MS: String(SYNC_MS),
  // a refusal answered after this long (the platform holds it 1 s; shorter keeps the suite quick)
  RATE_LIMIT_REFUSAL_HOLD_MS: String(HOLD_MS),
};

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

describe('rate limits per licence, per community and per tenant', function () {
  this.timeout(60_000);
  let platform: RunningPlatform;
  let second: Awaited<ReturnType<typeof startDocverifyGateway>>;
  let servicePublicKey: string;

  const name = () => `rl-${randomBytes(4).toString('hex')}`;
  /** a community of a tenant of its own with `count` service licences */
  const freshCommunity = async (count: number) => {
    const tenants = new TenantStore(platform.database.db);
    const tenant = await tenants.createTenant(name());
    const community = await tenants.createCommunity(tenant.id, name());
    const store = new LicenceStore(platform.database.db);
    const licences = [];
    for (let i = 0; i < count; i++)
      licences.push(await store.create({ level: 'service', communityIds: [community.id] }));
    return { tenant, community, licences };
  };
  /** `count` more communities of `tenantId` */
  const moreCommunities = async (tenantId: string, count: number) => {
    const tenants = new TenantStore(platform.database.db);
    const communities = [];
    for (let i = 0; i < count; i++)
      communities.push(await tenants.createCommunity(tenantId, name()));
    return communities;
  };
  const licenceOf = async (communityIds: string[]) =>
    (await new LicenceStore(platform.database.db).create({ level: 'service', communityIds }))
      .licenseKey;

  /** GET the community's verifiers (404 when it has none: the request got through) */
  const call = async (
    base: string,
    licenseKey: string,
    communityId: string,
    uuid?: string,
  ): Promise<Answer> => {
    const res = await fetch(`${base}/verifier/community/${communityId}`, {
      headers: credentialHeaders({ licenseKey, servicePublicKey, ...(uuid ? { uuid } : {}) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
  };
  /** GET /environment, a route that names no community (the plain licence header) */
  const environment = async (licenseKey: string): Promise<Answer> => {
    const res = await fetch(`${platform.services.docverify.url}/environment`, {
      headers: { license: licenseKey },
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
        '"licence";q=5;w=25, "community";q=8;w=40, "tenant";q=12;w=60',
      );
      expect(answer.headers.get('ratelimit')).to.match(
        new RegExp(
          `^"licence";r=${4 - i};t=\\d+, "community";r=${7 - i};t=\\d+, "tenant";r=${11 - i};t=\\d+$`,
        ),
      );
    }
    // a refusal is held before it is answered, so a client that does not wait cannot spin the
    // service on refusals; an admitted request is not
    const started = Date.now();
    const refused = await call(base, key, community.id);
    expect(Date.now() - started).to.be.at.least(HOLD_MS - 20);
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
      '"licence";q=5;w=25, "community";q=8;w=40, "tenant";q=12;w=60',
    );
    expect(refused.headers.get('ratelimit')).to.match(
      /^"licence";r=0;t=\d+, "community";r=3;t=\d+, "tenant";r=7;t=\d+$/,
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
      /^"licence";r=2;t=\d+, "community";r=0;t=\d+, "tenant";r=4;t=\d+$/,
    );
  });

  it('a limit set by the admin CLI takes effect, for a licence, a community and a tenant', async function () {
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
    const tenantCapped = await freshCommunity(1);
    through(await call(base, key, community.id));
    const cap = ['--community', capped.community.id];
    const tenantCap = ['--tenant', tenantCapped.tenant.id];
    const [set, capSet, tenantSet] = await Promise.all([
      admin('ratelimit', 'set', '--licence', key, '--rps', '0.1', '--burst', '2'),
      admin('ratelimit', 'set', ...cap, '--rps', '0.1', '--burst', '3'),
      admin('ratelimit', 'set', ...tenantCap, '--rps', '0.1', '--burst', '4'),
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
    expect(tenantSet).to.deep.include({
      scope: 'tenant',
      id: tenantCapped.tenant.id,
      rps: 0.1,
      burst: 4,
    });
    await settle();

    // 4 of 5 were left; the bucket now holds at most 2
    for (let i = 0; i < 2; i++) through(await call(base, key, community.id));
    const refused = await call(base, key, community.id);
    limited(refused);
    expect(refused.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=2;w=20, "community";q=8;w=40, "tenant";q=12;w=60',
    );

    // a community capped below the default: its licence gets 3, not 5
    const cappedKey = capped.licences[0]!.licenseKey;
    for (let i = 0; i < 3; i++) through(await call(base, cappedKey, capped.community.id));
    const full = await call(base, cappedKey, capped.community.id);
    limited(full);
    expect(full.body.message).to.contain(`community ${capped.community.id}`);
    expect(full.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=5;w=25, "community";q=3;w=30, "tenant";q=12;w=60',
    );

    // a tenant capped below the default: its licence gets 4, not 5
    const tenantKey = tenantCapped.licences[0]!.licenseKey;
    for (let i = 0; i < 4; i++) through(await call(base, tenantKey, tenantCapped.community.id));
    const tenantFull = await call(base, tenantKey, tenantCapped.community.id);
    limited(tenantFull);
    expect(tenantFull.body.message).to.contain(`tenant ${tenantCapped.tenant.id}`);
    expect(tenantFull.headers.get('ratelimit-policy')).to.equal(
      '"licence";q=5;w=25, "community";q=8;w=40, "tenant";q=4;w=40',
    );

    const [shown, one, oneTenant] = await Promise.all([
      admin('ratelimit', 'show'),
      admin('ratelimit', 'show', '--licence', licences[0]!.licence.id),
      admin('ratelimit', 'show', ...tenantCap),
    ]);
    expect(shown.defaults).to.deep.equal({
      licence: { rps: 0.2, burst: 5 },
      community: { rps: 0.2, burst: 8 },
      tenant: { rps: 0.2, burst: 12 },
      images: { rps: 100000, burst: 100000 },
    });
    expect(shown.limits).to.deep.include.members([set, capSet, tenantSet]);
    expect(one).to.deep.equal({ ...set, source: 'operator' });
    expect(oneTenant).to.deep.equal({ ...tenantSet, source: 'operator' });
    const [unset, tenantUnset] = await Promise.all([
      admin('ratelimit', 'unset', '--licence', key),
      admin('ratelimit', 'unset', ...tenantCap),
    ]);
    expect(unset).to.deep.include({ removed: true, rps: 0.2, burst: 5, source: 'default' });
    expect(tenantUnset).to.deep.include({ removed: true, rps: 0.2, burst: 12, source: 'default' });
  });

  it("the tenant limit caps the sum of its communities' licences", async () => {
    const base = platform.services.docverify.url;
    const { tenant, community, licences } = await freshCommunity(1);
    const [second, third] = await moreCommunities(tenant.id, 2);
    const keys = [
      [licences[0]!.licenseKey, community.id],
      [await licenceOf([second!.id]), second!.id],
      [await licenceOf([third!.id]), third!.id],
    ] as const;
    // before: three licences, three times a licence's 5; the tenant's 12 hold them all
    for (const [key, id] of keys.slice(0, 2))
      for (let i = 0; i < 5; i++) through(await call(base, key, id));
    const [key, id] = keys[2];
    for (let i = 0; i < 2; i++) through(await call(base, key, id));
    const refused = await call(base, key, id);
    limited(refused);
    expect(refused.body.message).to.contain(`rate limit of tenant ${tenant.id} reached`);
    expect(refused.headers.get('ratelimit')).to.match(
      /^"licence";r=3;t=\d+, "community";r=6;t=\d+, "tenant";r=0;t=\d+$/,
    );
    // another tenant's licence is not held back
    const other = await freshCommunity(1);
    through(await call(base, other.licences[0]!.licenseKey, other.community.id));
  });

  it('a route naming no community charges the licence and its tenant, none of its communities', async () => {
    const base = platform.services.docverify.url;
    const { tenant, community } = await freshCommunity(0);
    const [second] = await moreCommunities(tenant.id, 1);
    const key = await licenceOf([community.id, second!.id]);
    for (let i = 0; i < 3; i++) {
      const answer = await environment(key);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.headers.get('ratelimit-policy')).to.equal(
        '"licence";q=5;w=25, "tenant";q=12;w=60',
      );
    }
    // before: each of those took a request from both communities' buckets too
    for (const id of [community.id, second!.id]) {
      const named = await call(base, key, id);
      through(named);
      expect(named.headers.get('ratelimit'), id).to.match(
        /^"licence";r=\d+;t=\d+, "community";r=7;t=\d+, "tenant";r=\d+;t=\d+$/,
      );
    }
  });

  it('writes nothing for a 429: its request id stays unspent; a replay spends no budget', async () => {
    const base = platform.services.docverify.url;
    const db = platform.database.db;
    const { community, licences } = await freshCommunity(1);
    const key = licences[0]!.licenseKey;
    const first = randomUUID();
    through(await call(base, key, community.id, first));
    // a captured request sent again: refused as a replay, its token given back
    for (let i = 0; i < 3; i++) {
      const replay = await call(base, key, community.id, first);
      expect(replay.status, JSON.stringify(replay.body)).to.equal(401);
      expect(replay.body.message).to.contain('replay');
    }
    await settle();
    const next = await call(base, key, community.id);
    through(next);
    // 5 - 2 (a refill on a slow machine may add one); before: 5 - 2 - 3 replays, none left
    expect(next.headers.get('ratelimit')).to.match(/^"licence";r=[34];t=\d+/);
    for (let i = 0; i < 3; i++) through(await call(base, key, community.id));
    // over the limit: 429 before the replay log, so no row for its request id
    const unspent = randomUUID();
    const refused = await call(base, key, community.id, unspent);
    limited(refused);
    expect(refused.headers.get('retry-after')).to.match(/^[1-5]$/);
    expect(refused.headers.get('ratelimit')).to.match(/^"licence";r=0;t=\d+/);
    const rows = await db('platform.request_nonces')
      .whereIn('uuid', [first, unspent])
      .pluck('uuid');
    expect(rows).to.deep.equal([first]);
    // before: the 429 had spent it, so the same request sent again was a replay (401); now it is a
    // request never seen (refused by the limit again, or admitted should a refill have come)
    const again = await call(base, key, community.id, unspent);
    expect(again.status, JSON.stringify(again.body)).to.be.oneOf([429, 404]);
  });

  it("counts the licence's requests to every service: event intake and the EAM context are limited alike", async () => {
    const { tenant, community, licences } = await freshCommunity(1);
    const key = licences[0]!.licenseKey;
    for (let i = 0; i < 5; i++)
      through(await call(platform.services.docverify.url, key, community.id));
    await settle();
    const signed = async (service: 'webhooks' | 'oauth', path: string, init: RequestInit = {}) => {
      const base = platform.services[service].url;
      const keys = (await (await fetch(`${base}/publickeys`)).json()) as { publicKey: string };
      const headers = credentialHeaders({ licenseKey: key, servicePublicKey: keys.publicKey });
      const res = await fetch(`${base}${path}`, {
        ...init,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      return {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Answer['body'],
      };
    };
    const answers = [
      await signed(
        'webhooks',
        `/tenant/${tenant.id}/community/${community.id}/event/E_IDV_DOCUMENT_VALIDATE`,
        {
          method: 'PUT',
          body: JSON.stringify({ dvcID: 'kyc-basic', docType: 'passport', status: 'verified' }),
        },
      ),
      await signed(
        'oauth',
        `/community/${community.name}/v1/interaction/${randomUUID()}/eam-context`,
      ),
    ];
    for (const refused of answers) {
      limited(refused);
      expect(refused.body).to.include({ statusCode: 429, error: 'Too Many Requests' });
      expect(refused.body.message).to.match(/rate limit of this licence reached/);
      expect(refused.headers.get('retry-after')).to.match(/^[1-5]$/);
      expect(refused.headers.get('ratelimit-policy')).to.equal(
        '"licence";q=5;w=25, "community";q=8;w=40, "tenant";q=12;w=60',
      );
      expect(refused.headers.get('ratelimit')).to.match(
        /^"licence";r=0;t=\d+, "community";r=3;t=\d+, "tenant";r=7;t=\d+$/,
      );
    }
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
