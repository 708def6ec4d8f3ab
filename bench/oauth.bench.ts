// OAuth: client_credentials issuance and introspection with the service's PostgreSQL adapter,
// against oidc-provider with its in-memory adapter in the same run.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { createTestDatabase, testAmqpUrl } from '@idv/testing/testServers';
import { platformMigrations, TenantStore } from '@idv/platform';
import { createOauthClient } from '../services/oauth/src/admin.ts';
import { oauthMigrations } from '../services/oauth/src/migrations.ts';
import { providerConfiguration } from '../services/oauth/src/providerConfig.ts';
import { startOauth } from '../services/oauth/src/start.ts';
import { AccountStore } from '../services/oauth/src/store/accountStore.ts';
import { ClientStore } from '../services/oauth/src/store/clientStore.ts';
import { FactorStore } from '../services/oauth/src/store/factorStore.ts';
import { OperatorStore } from '../services/oauth/src/store/operatorStore.ts';
import { SignInSettingsStore } from '../services/oauth/src/store/signInSettings.ts';
import { measure, medianRound, spreadOf, type Comparison, type Measurement } from './harness.ts';

const CONCURRENCY = 8;
const ROUNDS = 7;
/** long enough that a passing hiccup of the shared machine is a small part of a round */
const ROUND_MS = 2000;
/**
 * Rates kept climbing for about ten seconds after start (V8 tiers up oidc-provider's whole
 * pipeline, the heap grows into fresh pages), each target's own code a part of it.
 */
const WARM_UP_MS = 3000;

interface Target {
  name: string;
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
  if (res.status !== 200) throw new Error(`${target.name}: token endpoint answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Without token_type_hint, as most resource servers call it (the costlier lookup). */
async function introspect(target: Target, token: string): Promise<void> {
  const res = await fetch(target.introspectUrl, {
    method: 'POST',
    headers: { authorization: target.basic },
    body: new URLSearchParams({ token }),
  });
  const body = (await res.json()) as { active: boolean };
  if (body.active !== true) throw new Error(`${target.name}: token inactive`);
}

/**
 * ops/s with CONCURRENCY requests in flight, targets compared in the pairs given (by default
 * the first, the in-memory baseline, beside each of the others). The targets take turns for ROUNDS rounds, the order turning round every
 * other round, and each comparison reports its round of median ratio (see medianRound): rates
 * here drift by a third within a run (V8 settling, the shared machine), so a ratio is only
 * trusted between measurements seconds apart. Every target first runs WARM_UP_MS unmeasured.
 */
async function compare(
  targets: Target[],
  op: (t: Target) => Promise<unknown>,
  /** [baseline, candidate] indices into targets; by default the first beside each other */
  pairs: [number, number][] = targets.slice(1).map((_, k) => [0, k + 1]),
): Promise<{ median: { baseline: Measurement; candidate: Measurement }; ratios: number[] }[]> {
  const inFlight = (target: Target) => () =>
    Promise.all(Array.from({ length: CONCURRENCY }, () => op(target)));
  for (const target of targets) await measure(target.name, inFlight(target), WARM_UP_MS);
  const rounds: Measurement[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...targets.entries()];
    if (round % 2 === 1) order.reverse();
    const measured: Measurement[] = [];
    for (const [i, target] of order) {
      const batch = await measure(target.name, inFlight(target), ROUND_MS);
      measured[i] = { name: target.name, opsPerSecond: batch.opsPerSecond * CONCURRENCY };
    }
    rounds.push(measured);
  }
  return pairs.map(([b, c]) =>
    medianRound(rounds.map((r) => ({ baseline: r[b]!, candidate: r[c]! }))),
  );
}

/** A bare HTTP server for one provider, its endpoints at the root as in oidc-provider's docs. */
async function bareProvider(
  name: string,
  configuration: Configuration,
  client: { id: string; secret: string },
) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', new Provider(`${base}/community/bench`, configuration).callback());
  const target: Target = {
    name,
    tokenUrl: `${base}/v1/token`,
    introspectUrl: `${base}/v1/introspect`,
    basic: basicOf(client.id, client.secret),
  };
  return { target, close: () => server.close() };
}

/** The oauth service in-process on a fresh database with one community, as the benches use it. */
export async function benchOauth() {
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
    // no shared `webhooks.dispatcher` queue collecting the bench's events
    DECLARE_WEBHOOK_EVENTS_QUEUE: 'false',
  });
  return { database, masterKey, community, service };
}

export async function oauthBenchmarks(): Promise<Comparison[]> {
  const { database, masterKey, community, service } = await benchOauth();
  // the same provider configuration for both; only the adapter differs (the service's pool)
  const { db } = service.runtime;
  const deps = {
    db,
    masterKey,
    clients: new ClientStore(db, service.runtime.keyring),
    accounts: new AccountStore(db),
    factors: new FactorStore(db, service.runtime.keyring, randomBytes(32)),
    settings: new SignInSettingsStore(db, 'operators'),
    operators: new OperatorStore(db),
    operatorsCommunity: 'operators',
  };
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keys = [{ ...privateKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' }];
  const { adapter: _postgres, ...inMemoryConfiguration } = providerConfiguration(
    deps,
    community,
    keys,
  );
  const credentials = await createOauthClient(
    { db: database.db, keyring: service.runtime.keyring },
    { community: community.name, redirectUris: [], grantTypes: ['client_credentials'] },
  );
  const client = { id: credentials.client_id, secret: credentials.client_secret };
  const memory = await bareProvider(
    'oidc-provider, in-memory adapter',
    {
      ...inMemoryConfiguration,
      // the in-memory adapter's clients are static ones (cheaper than any adapter lookup)
      clients: [
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
      ],
    },
    client,
  );
  const postgres = await bareProvider(
    'oidc-provider, PostgreSQL adapter',
    providerConfiguration(deps, community, keys),
    client,
  );
  // the same, with every token write waiting for the WAL flush (see ModelBatches)
  const durable = await bareProvider(
    'PostgreSQL adapter, OAUTH_DURABLE_ISSUANCE=true',
    providerConfiguration({ ...deps, durableIssuance: true }, community, keys),
    client,
  );
  const issuer = `${service.server.url.replace(/\/$/, '')}/community/bench`;
  const whole: Target = {
    name: 'whole oauth service (PostgreSQL)',
    tokenUrl: `${issuer}/v1/token`,
    introspectUrl: `${issuer}/v1/introspect`,
    basic: basicOf(client.id, client.secret),
  };
  try {
    const targets = [memory.target, postgres.target, whole];
    // durable next to the adapter it varies, so the pair of them is measured seconds apart
    const issuers = [memory.target, postgres.target, durable.target, whole];
    const pairs: [number, number][] = [
      [0, 1],
      [0, 2],
      [0, 3],
      [2, 1],
    ];
    const [token, durableToken, wholeToken, relaxedOverDurable] = await compare(
      issuers,
      issue,
      pairs,
    );
    // tokens made after the issuance runs: the in-memory adapter is an LRU of 1000 entries
    const tokens = new Map<Target, string>();
    for (const target of targets) tokens.set(target, await issue(target));
    const [introspection, wholeIntrospection] = await compare(targets, (t) =>
      introspect(t, tokens.get(t)!),
    );
    const row = (
      suite: string,
      compared: { median: { baseline: Measurement; candidate: Measurement }; ratios: number[] },
      what: string,
    ): Comparison => ({
      suite,
      ...compared.median,
      note: `${what}; ${CONCURRENCY} in flight, the round of median ratio of ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s (ratios ${spreadOf(compared.ratios)}) after a ${WARM_UP_MS / 1000} s warm-up of each`,
    });
    return [
      row(
        'oauth client_credentials token',
        token!,
        "same provider configuration, only the adapter differs (the service's default: a new token commits without waiting for the disk flush) (goal: ratio >= 0.8)",
      ),
      row(
        'oauth token, durable issuance',
        durableToken!,
        'as above with OAUTH_DURABLE_ISSUANCE=true: every token write waits for the WAL flush, as used codes and revocations always do',
      ),
      row(
        'oauth token, relaxed against durable issuance',
        relaxedOverDurable!,
        'the two rows above paired round by round: what skipping the WAL flush for new tokens gains',
      ),
      row(
        'oauth introspection (no hint)',
        introspection!,
        'same provider configuration, only the adapter differs (goal: ratio >= 0.8)',
      ),
      row(
        'oauth token, whole service',
        wholeToken!,
        'plus Express, access log, metrics and the token event',
      ),
      row(
        'oauth introspection, whole service',
        wholeIntrospection!,
        'plus Express, access log and metrics',
      ),
    ];
  } finally {
    memory.close();
    postgres.close();
    durable.close();
    await service.stop();
    await database.drop();
  }
}
