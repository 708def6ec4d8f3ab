// Starts the three HTTP services in this process on one fresh database, plus seeded licences, and a
// capture-check worker (the gateway sends it the captured images) on the suite's own queue.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_WAIT_TIERS_MS, runWaitQueue } from '@idv/contracts';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { deleteQueues } from './amqpCleanup.ts';
import {
  LicenceStore,
  localKeyring,
  platformMigrations,
  TenantStore,
  type Community,
  type Keyring,
} from '@idv/platform';
import { docverifyMigrations } from '../../../services/docverify-gateway/src/migrations.ts';
import { oauthMigrations } from '../../../services/oauth/src/migrations.ts';
import { webhooksMigrations } from '../../../services/webhooks-gateway/src/migrations.ts';
import {
  startDocverifyGateway,
  type GatewayOptions,
} from '../../../services/docverify-gateway/src/start.ts';
import { startCaptureChecker } from '../../../services/capture-checker/src/start.ts';
import { startOauth } from '../../../services/oauth/src/start.ts';
import { startWebhooksGateway } from '../../../services/webhooks-gateway/src/start.ts';

export interface RunningPlatform {
  database: TestDatabase;
  env: Record<string, string>;
  services: Record<'oauth' | 'docverify' | 'webhooks', { url: string; stop(): Promise<void> }>;
  community: Community;
  otherCommunity: Community;
  licences: Record<
    'system' | 'service' | 'serviceElsewhere' | 'community' | 'expired' | 'disabled',
    string
  >;
  stop(): Promise<void>;
}

/**
 * overridesFor: env overrides computed from the suite's database URL (e.g. a proxied one);
 * gatewayOptions: what the docverify gateway is given beside its env (a test clock).
 */
export async function startPlatform(
  overrides: Record<string, string> = {},
  overridesFor: (databaseUrl: string) => Record<string, string> = () => ({}),
  gatewayOptions: GatewayOptions = {},
): Promise<RunningPlatform> {
  const database = await createTestDatabase([
    platformMigrations,
    oauthMigrations,
    docverifyMigrations,
    webhooksMigrations,
  ]);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: randomBytes(32).toString('base64'),
    // the suite's own directory of added key-encryption keys (a rotation writes one there)
    MASTER_KEYS_DIR: join(tmpdir(), `idv-keys-${randomBytes(4).toString('hex')}`),
    LOG_LEVEL: 'silent',
    OAUTH_PORT: '0',
    DOCVERIFY_PORT: '0',
    WEBHOOKS_PORT: '0',
    // the shared broker gets no `webhooks.dispatcher` queue collecting every suite's events: a
    // suite that runs the dispatcher gives it a queue of its own and deletes it
    DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
    // the suite's own runs queue: a gateway of another suite (or of `make run`) never takes its runs
    DOCVERIFY_RUNS_QUEUE: `test.runs.${randomBytes(4).toString('hex')}`,
    // and its own queue of connectors' follow-up answers, for the same reason
    DOCVERIFY_FOLLOWUPS_QUEUE: `test.followups.${randomBytes(4).toString('hex')}`,
    // and its own queue of capture checks, served by its own capture-check worker (one thread)
    CAPTURE_CHECK_QUEUE: `test.capture.${randomBytes(4).toString('hex')}`,
    CAPTURE_CHECK_THREADS: '1',
    // suites make far more requests a second from one licence than a caller should: limits above
    // them, still enforced (test/rate-limits.test.ts sets small ones)
    RATE_LIMIT_LICENCE_RPS: '100000',
    RATE_LIMIT_LICENCE_BURST: '100000',
    RATE_LIMIT_COMMUNITY_RPS: '100000',
    RATE_LIMIT_COMMUNITY_BURST: '100000',
    RATE_LIMIT_TENANT_RPS: '100000',
    RATE_LIMIT_TENANT_BURST: '100000',
    RATE_LIMIT_IMAGES_MBPS: '100000',
    RATE_LIMIT_IMAGES_BURST: '100000',
    // refusals answered at once: suites count them (test/rate-limits.test.ts checks the hold)
    RATE_LIMIT_REFUSAL_HOLD_MS: '0',
    ...overrides,
    ...overridesFor(database.url),
  };
  const tenants = new TenantStore(database.db);
  const tenant = await tenants.createTenant(`tenant-${randomBytes(3).toString('hex')}`);
  const other = await tenants.createTenant(`other-${randomBytes(3).toString('hex')}`);
  const community = await tenants.createCommunity(
    tenant.id,
    `community-${randomBytes(3).toString('hex')}`,
  );
  const otherCommunity = await tenants.createCommunity(
    other.id,
    `elsewhere-${randomBytes(3).toString('hex')}`,
  );
  const store = new LicenceStore(database.db);
  const key = async (level: 'system' | 'service' | 'community', ids: string[], expiresAt?: Date) =>
    (await store.create({ level, communityIds: ids, expiresAt })).licenseKey;
  const disabled = await store.create({ level: 'system', communityIds: [] });
  await store.setDisabled(disabled.licence.id, true);
  const licences = {
    system: await key('system', []),
    service: await key('service', [community.id]),
    serviceElsewhere: await key('service', [otherCommunity.id]),
    community: await key('community', [community.id]),
    expired: await key('system', [], new Date(Date.now() - 60_000)),
    disabled: disabled.licenseKey,
  };

  const [oauth, docverify, webhooks, checker] = await Promise.all([
    startOauth(env),
    startDocverifyGateway(env, gatewayOptions),
    startWebhooksGateway(env),
    startCaptureChecker(env),
  ]);
  await Promise.all(
    [oauth, docverify, webhooks, checker].map((s) =>
      s.runtime.broker.waitUntilConnected(15_000).catch(() => undefined),
    ),
  );
  const services = {
    oauth: { url: oauth.server.url, stop: oauth.stop },
    docverify: { url: docverify.server.url, stop: docverify.stop },
    webhooks: { url: webhooks.server.url, stop: webhooks.stop },
  };
  return {
    database,
    env,
    services,
    community,
    otherCommunity,
    licences,
    async stop() {
      await Promise.all([...Object.values(services), checker].map((s) => s.stop()));
      await database.drop();
      rmSync(env.MASTER_KEYS_DIR!, { recursive: true, force: true });
      await deleteQueues(env.AMQP_URL!, [
        env.DOCVERIFY_RUNS_QUEUE!,
        ...RUN_WAIT_TIERS_MS.map((tier) => runWaitQueue(env.DOCVERIFY_RUNS_QUEUE!, tier)),
        env.DOCVERIFY_FOLLOWUPS_QUEUE!,
        `${env.DOCVERIFY_FOLLOWUPS_QUEUE!}.wait`,
        env.CAPTURE_CHECK_QUEUE!,
      ]);
    },
  };
}

/** A keyring over the platform's database and keys, as the services and the admin CLI have it. */
export function platformKeyring(platform: Pick<RunningPlatform, 'database' | 'env'>): Keyring {
  const masterKey = Buffer.from(platform.env.MASTER_KEY!, 'base64');
  return localKeyring(platform.database.db, masterKey, platform.env.MASTER_KEYS_DIR!);
}
