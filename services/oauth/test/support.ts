// Test helpers: an oauth service on a fresh database, seeded communities, proof JWT signing.
import { randomBytes, randomUUID } from 'node:crypto';
import { signProofJwt } from '@idv/testing/proofJwt';
import { TestClock } from '@idv/testing/testClock';
import { createTestDatabase, testAmqpUrl, type TestDatabase } from '@idv/testing/testServers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  localKeyring,
  platformMigrations,
  TenantStore,
  type Community,
  type Keyring,
} from '@idv/platform';
import type { StartedService } from '@idv/service-runtime';
import { oauthMigrations } from '../src/migrations.ts';
import { startOauth } from '../src/start.ts';
import type { SignInAdminContext } from '../src/signInAdmin.ts';
import { AccountStore } from '../src/store/accountStore.ts';

export interface OauthUnderTest {
  database: TestDatabase;
  service: StartedService;
  url: string;
  masterKey: Buffer;
  /** the service's keyring, as the admin CLI would build it */
  keyring: Keyring;
  community: Community;
  other: Community;
  /** an account of `community`: the sub a valid proof names */
  accountId: string;
  issuer(community: Community): string;
  /** what the admin CLI's sign-in and operator actions are given (actor `test`) */
  admin(): SignInAdminContext;
  /** the clock the service's sign-in settings' cache ages by: advance it past the cache's life */
  settingsClock: TestClock;
  stop(): Promise<void>;
}

export async function startOauthUnderTest(
  env: Record<string, string> = {},
): Promise<OauthUnderTest> {
  const database = await createTestDatabase([platformMigrations, oauthMigrations]);
  const masterKey = randomBytes(32);
  const tenants = new TenantStore(database.db);
  const tenant = await tenants.createTenant(`tenant-${randomBytes(3).toString('hex')}`);
  const community = await tenants.createCommunity(tenant.id, `c-${randomBytes(3).toString('hex')}`);
  const other = await tenants.createCommunity(tenant.id, `o-${randomBytes(3).toString('hex')}`);
  const settingsClock = new TestClock();
  const service = await startOauth(
    {
      DATABASE_URL: database.url,
      AMQP_URL: await testAmqpUrl(),
      MASTER_KEY: masterKey.toString('base64'),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      OAUTH_PORT: '0',
      // no shared `webhooks.dispatcher` queue collecting the suites' login events
      DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
      ...env,
    },
    { settingsClock: settingsClock.nowMs },
  );
  const account = await new AccountStore(database.db).create(
    community.id,
    'testy-proof-subject',
    randomBytes(12).toString('base64'),
    'Testy McTestface',
  );
  const url = service.server.url.replace(/\/$/, '');
  const keyring = localKeyring(database.db, masterKey, join(tmpdir(), 'idv-oauth-keys-unused'));
  return {
    database,
    service,
    url,
    masterKey,
    keyring,
    community,
    other,
    accountId: account.accountId,
    settingsClock,
    issuer: (c) => `${url}/community/${c.name}`,
    admin() {
      return {
        db: database.db,
        keyring,
        masterKey,
        operatorsCommunity: 'operators',
        actor: 'test',
      };
    },
    async stop() {
      await service.stop();
      await database.drop();
    },
  };
}

export interface ProofClaims {
  sub?: string;
  aud?: string;
  iat?: number;
  exp?: number;
  jti?: string;
  azp?: string;
}

/**
 * An ES256K JWT signed with a base64 secp256k1 scalar (a platform service key's keySecret), as
 * node:crypto signs it: OpenSSL's s is high in about half the cases, and callers send it so.
 */
export function signProof(
  privateKey: string,
  claims: ProofClaims,
  header: { kid?: string } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sub: 'acct-testy-mctestface',
    iat: now,
    exp: now + 60,
    jti: randomUUID(),
    ...claims,
  };
  return signProofJwt(privateKey, payload, 'as-signed', header);
}

export { malleate, withSForm } from '@idv/testing/proofJwt';
