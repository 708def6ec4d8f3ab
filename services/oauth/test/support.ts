// Test helpers: an oauth service on a fresh database, seeded communities, proof JWT signing.
import { createECDH, createPrivateKey, randomBytes, randomUUID, sign } from 'node:crypto';
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

function secp256k1Key(privateKey: string) {
  const d = Buffer.from(privateKey, 'base64');
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const b64 = (b: Buffer) => b.toString('base64url');
  return createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: b64(d),
      x: b64(point.subarray(1, 33)),
      y: b64(point.subarray(33)),
    },
  });
}

/** The order of secp256k1, to move a signature's s between its two valid forms. */
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const withS = (signature: Buffer, s: bigint) =>
  Buffer.concat([signature.subarray(0, 32), Buffer.from(s.toString(16).padStart(64, '0'), 'hex')]);

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
  const encode = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${encode({ alg: 'ES256K', typ: 'JWT', ...header })}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: secp256k1Key(privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

const isHighS = (proof: string) =>
  BigInt(`0x${Buffer.from(proof.split('.')[2]!, 'base64url').subarray(32).toString('hex')}`) >
  ORDER / 2n;

/** The same proof with its signature in the form asked for (high S: the form strict signers avoid). */
export function withSForm(proof: string, form: 'high' | 'low'): string {
  return isHighS(proof) === (form === 'high') ? proof : malleate(proof);
}

/** The same proof with s replaced by n - s: a signature node:crypto still verifies. */
export function malleate(proof: string): string {
  const [header, payload, signature] = proof.split('.');
  const raw = Buffer.from(signature!, 'base64url');
  const s = BigInt(`0x${raw.subarray(32).toString('hex')}`);
  return `${header}.${payload}.${withS(raw, ORDER - s).toString('base64url')}`;
}
