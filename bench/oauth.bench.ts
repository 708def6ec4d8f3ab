// OAuth: client_credentials issuance and introspection through the service with its PostgreSQL
// adapter, against oidc-provider with its in-memory adapter in the same run.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { createTestDatabase, testAmqpUrl } from '@idv/db/testing';
import { platformMigrations, TenantStore } from '@idv/platform';
import { createOauthClient } from '../services/oauth/src/admin.ts';
import { oauthMigrations } from '../services/oauth/src/migrations.ts';
import { ROUTES } from '../services/oauth/src/providerConfig.ts';
import { startOauth } from '../services/oauth/src/start.ts';
import { measure, type Comparison } from './harness.ts';

const CONCURRENCY = 8;

interface Target {
  tokenUrl: string;
  introspectUrl: string;
  basic: string;
}

const basicOf = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function issue(target: Target): Promise<string> {
  const res = await fetch(target.tokenUrl, {
    method: 'POST',
    headers: { authorization: target.basic },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function introspect(target: Target, token: string): Promise<void> {
  const res = await fetch(target.introspectUrl, {
    method: 'POST',
    headers: { authorization: target.basic },
    body: new URLSearchParams({ token }),
  });
  if (((await res.json()) as { active: boolean }).active !== true) throw new Error('inactive');
}

/** ops/s with CONCURRENCY requests in flight. */
async function rate(name: string, op: () => Promise<unknown>) {
  const batch = await measure(name, () => Promise.all(Array.from({ length: CONCURRENCY }, op)));
  return { name, opsPerSecond: batch.opsPerSecond * CONCURRENCY };
}

async function inMemoryProvider(): Promise<{ target: Target; close(): void }> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const secret = randomBytes(32).toString('base64url');
  const provider = new Provider('http://127.0.0.1/community/bench', {
    clients: [
      {
        client_id: 'bench',
        client_secret: secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    jwks: {
      keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' }],
    },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    routes: ROUTES,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
    },
  });
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target: {
      tokenUrl: `${base}/v1/token`,
      introspectUrl: `${base}/v1/introspect`,
      basic: basicOf('bench', secret),
    },
    close: () => server.close(),
  };
}

export async function oauthBenchmarks(): Promise<Comparison[]> {
  const database = await createTestDatabase([platformMigrations, oauthMigrations]);
  const masterKey = randomBytes(32);
  const tenants = new TenantStore(database.db);
  const tenant = await tenants.createTenant('bench-tenant');
  const community = await tenants.createCommunity(tenant.id, 'bench');
  const service = await startOauth({
    DATABASE_URL: database.url,
    AMQP_URL: await testAmqpUrl(),
    MASTER_KEY: masterKey.toString('base64'),
    LOG_LEVEL: 'silent',
    OAUTH_PORT: '0',
  });
  const memory = await inMemoryProvider();
  try {
    const credentials = await createOauthClient(
      { db: database.db, masterKey },
      { community: community.name, redirectUris: [], grantTypes: ['client_credentials'] },
    );
    const issuer = `${service.server.url.replace(/\/$/, '')}/community/bench`;
    const pg: Target = {
      tokenUrl: `${issuer}/v1/token`,
      introspectUrl: `${issuer}/v1/introspect`,
      basic: basicOf(credentials.client_id, credentials.client_secret),
    };
    const memoryToken = await issue(memory.target);
    const pgToken = await issue(pg);
    const issueMemory = await rate('in-memory adapter', () => issue(memory.target));
    const issuePg = await rate('PostgreSQL adapter', () => issue(pg));
    const introMemory = await rate('in-memory adapter', () =>
      introspect(memory.target, memoryToken),
    );
    const introPg = await rate('PostgreSQL adapter', () => introspect(pg, pgToken));
    return [
      {
        suite: 'oauth client_credentials token',
        baseline: issueMemory,
        candidate: issuePg,
        note: `issuance through the whole service, ${CONCURRENCY} in flight (goal: ratio >= 0.8)`,
      },
      {
        suite: 'oauth introspection',
        baseline: introMemory,
        candidate: introPg,
        note: `introspection through the whole service, ${CONCURRENCY} in flight (goal: ratio >= 0.8)`,
      },
    ];
  } finally {
    memory.close();
    await service.stop();
    await database.drop();
  }
}
