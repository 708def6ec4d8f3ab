// A webhooks gateway on a fresh database with seeded tenants, communities and licences.
import { randomBytes } from 'node:crypto';
import { IdvClient } from '@idv/client';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { LicenceStore, platformMigrations, TenantStore, type Community } from '@idv/platform';
import { webhooksMigrations } from '../../../services/webhooks-gateway/src/migrations.ts';
import { startWebhooksGateway } from '../../../services/webhooks-gateway/src/start.ts';

export interface WebhooksWorld {
  database: TestDatabase;
  env: Record<string, string>;
  url: string;
  community: Community;
  sibling: Community;
  otherCommunity: Community;
  licences: Record<'system' | 'service' | 'serviceElsewhere' | 'community', string>;
  client(licence: keyof WebhooksWorld['licences']): IdvClient;
  stop(): Promise<void>;
}

const suffix = () => randomBytes(3).toString('hex');

export async function startWebhooksWorld(
  overrides: Record<string, string> = {},
): Promise<WebhooksWorld> {
  const database = await createTestDatabase([platformMigrations, webhooksMigrations]);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    WEBHOOKS_PORT: '0',
    // no shared `webhooks.dispatcher` queue: the dispatcher suites use queues of their own
    DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
    ...overrides,
  };
  const tenants = new TenantStore(database.db);
  const tenant = await tenants.createTenant(`tenant-${suffix()}`);
  const other = await tenants.createTenant(`other-${suffix()}`);
  const community = await tenants.createCommunity(tenant.id, `community-${suffix()}`);
  const sibling = await tenants.createCommunity(tenant.id, `sibling-${suffix()}`);
  const otherCommunity = await tenants.createCommunity(other.id, `elsewhere-${suffix()}`);
  const store = new LicenceStore(database.db);
  const key = async (level: 'system' | 'service' | 'community', ids: string[]) =>
    (await store.create({ level, communityIds: ids })).licenseKey;
  const licences = {
    system: await key('system', []),
    service: await key('service', [community.id, sibling.id]),
    serviceElsewhere: await key('service', [otherCommunity.id]),
    community: await key('community', [community.id]),
  };
  const gateway = await startWebhooksGateway(env);
  await gateway.runtime.broker.waitUntilConnected(15_000).catch(() => undefined);
  const url = gateway.server.url;
  return {
    database,
    env,
    url,
    community,
    sibling,
    otherCommunity,
    licences,
    client: (licence) => new IdvClient({ baseUrl: url, licenseKey: licences[licence] }),
    async stop() {
      await gateway.stop();
      await database.drop();
    },
  };
}

/** A minimal valid webhook body for `url`. */
export function webhookBody(url: string, extra: Record<string, unknown> = {}) {
  return {
    name: 'Testy callbacks',
    eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
    api: { type: 'POST', url, authType: 'none' },
    successCodes: [200, 204],
    ...extra,
  };
}
