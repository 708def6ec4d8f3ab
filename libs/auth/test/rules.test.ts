// Declared access rules (levels, community, tenant) through a real listening app and database.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdvClient } from '@idv/client';
import { createTestDatabase, type TestDatabase } from '@idv/testing/testServers';
import { createHttpApp, startHttpServer, type RunningServer } from '@idv/http';
import { createLogger, createMetricsRegistry } from '@idv/observability';
import {
  LicenceStore,
  localKeyring,
  platformMigrations,
  ReplayGuard,
  ServiceKeyStore,
  TenantStore,
  type Community,
} from '@idv/platform';
import { createCredentialAuth, credentialsOf, fromParam } from '../src/index.ts';

describe('auth: declared access rules', function () {
  this.timeout(30_000);
  let t: TestDatabase;
  let server: RunningServer;
  let mine: Community;
  let theirs: Community;
  const keys: Record<string, string> = {};
  let servicePublicKey: string;

  before(async () => {
    t = await createTestDatabase([platformMigrations]);
    const tenants = new TenantStore(t.db);
    const tenantA = await tenants.createTenant('Tenant A');
    const tenantB = await tenants.createTenant('Tenant B');
    mine = await tenants.createCommunity(tenantA.id, 'mine');
    theirs = await tenants.createCommunity(tenantB.id, 'theirs');
    const licences = new LicenceStore(t.db);
    keys.system = (await licences.create({ level: 'system', communityIds: [] })).licenseKey;
    keys.service = (
      await licences.create({ level: 'service', communityIds: [mine.id] })
    ).licenseKey;
    keys.serviceExt = (
      await licences.create({ level: 'service_ext', communityIds: [mine.id] })
    ).licenseKey;
    keys.community = (
      await licences.create({ level: 'community', communityIds: [mine.id] })
    ).licenseKey;
    // a community named like theirs' id, stored directly (creation refuses such names now)
    const [impostor] = (await t
      .db('platform.communities')
      .insert({ tenant_id: tenantB.id, name: theirs.id })
      .returning('id')) as { id: string }[];
    keys.impostor = (
      await licences.create({ level: 'service', communityIds: [impostor!.id] })
    ).licenseKey;

    const serviceKeys = new ServiceKeyStore(
      t.db,
      localKeyring(t.db, randomBytes(32), join(tmpdir(), 'idv-unused-keys')),
      'docverify',
    );
    servicePublicKey = (await serviceKeys.currentKey()).key.keyId;
    const auth = createCredentialAuth({
      serviceKeys,
      licences,
      replay: new ReplayGuard(t.db),
      allowedTimeSpan: 60,
    });
    const managers = {
      levels: ['system', 'service', 'service_ext'] as const,
      community: { id: fromParam('communityId') },
      tenant: fromParam('tenantId'),
    };
    const app = createHttpApp({
      logger: createLogger({ service: 'test', level: 'silent' }),
      registry: createMetricsRegistry('test'),
      routes: [
        {
          method: 'GET',
          path: '/tenant/:tenantId/community/:communityId/thing',
          guards: [auth.require(managers)],
          handler: (_req, res) => res.json({ level: credentialsOf(res).licence.level }),
        },
        {
          method: 'POST',
          path: '/any',
          guards: [auth.require()],
          handler: (_req, res) => res.json({ appid: credentialsOf(res).requestId.appid }),
        },
      ],
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  const call = (licence: string, community: Community, tenantId = community.tenantId) =>
    new IdvClient({ baseUrl: server.url, licenseKey: licence, servicePublicKey }).request(
      'GET',
      `/tenant/${tenantId}/community/${community.id}/thing`,
    );

  const table: [string, () => Promise<{ status: number }>, number][] = [
    ['system licence, any community', () => call(keys.system!, theirs), 200],
    ['service licence, its community', () => call(keys.service!, mine), 200],
    ['service_ext licence, its community', () => call(keys.serviceExt!, mine), 200],
    ['service licence, another community', () => call(keys.service!, theirs), 403],
    ['community licence, its community', () => call(keys.community!, mine), 403],
    [
      "service licence of a community named like another's id, that other",
      () => call(keys.impostor!, theirs),
      403,
    ],
    [
      'service licence, its community under another tenant',
      () => call(keys.service!, mine, theirs.tenantId),
      403,
    ],
  ];
  for (const [name, request, status] of table) {
    it(`${name}: ${status}`, async () => {
      const res = await request();
      expect(res.status).to.equal(status);
    });
  }

  it('passes the decrypted requestid to the handler when any licence will do', async () => {
    const client = new IdvClient({
      baseUrl: server.url,
      licenseKey: keys.community!,
      appId: 'com.example.tests',
      servicePublicKey,
    });
    const res = await client.request('POST', '/any', {});
    expect(res).to.deep.include({ status: 200, body: { appid: 'com.example.tests' } });
  });
});
