// A ready-to-use dev tenant, community, licences and caller key pair, kept in .local/ and
// reused across runs while they still exist in the database.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPair, randomToken, type KeyPair } from '@idv/crypto';
import type { Knex } from '@idv/db';
import {
  LicenceStore,
  TenantStore,
  type Community,
  type Keyring,
  type Tenant,
} from '@idv/platform';
import { createOauthAccount, createOauthClient } from '../../services/oauth/src/admin.ts';

export interface DevCredentials {
  tenant: Tenant;
  community: Community;
  licences: { system: string; service: string };
  caller: KeyPair;
  oauth: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    username: string;
    password: string;
  };
}

const FILE = '.local/dev-credentials.json';

async function stillValid(db: Knex, saved: DevCredentials): Promise<boolean> {
  const licences = new LicenceStore(db, 0);
  const community = await new TenantStore(db).findCommunityById(saved.community.id);
  if (!community) return false;
  const checks = await Promise.all([
    licences.check(saved.licences.system),
    licences.check(saved.licences.service),
  ]);
  return checks.every((c) => c.ok);
}

const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

async function create(db: Knex, keyring: Keyring): Promise<DevCredentials> {
  const tenants = new TenantStore(db);
  const suffix = Date.now().toString(36);
  const tenant = await tenants.createTenant(`dev-tenant-${suffix}`);
  const community = await tenants.createCommunity(tenant.id, `dev-community-${suffix}`);
  const licences = new LicenceStore(db);
  const system = await licences.create({ level: 'system', communityIds: [] });
  const service = await licences.create({ level: 'service', communityIds: [community.id] });
  const ctx = { db, keyring };
  const client = await createOauthClient(ctx, {
    community: community.name,
    redirectUris: [REDIRECT_URI],
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  });
  const username = 'testy';
  const password = randomToken(12);
  await createOauthAccount(ctx, {
    community: community.name,
    username,
    password,
    displayName: 'Testy McTestface',
  });
  return {
    tenant,
    community,
    licences: { system: system.licenseKey, service: service.licenseKey },
    caller: generateKeyPair(),
    oauth: {
      clientId: client.client_id,
      clientSecret: client.client_secret,
      redirectUri: REDIRECT_URI,
      username,
      password,
    },
  };
}

export async function devCredentials(db: Knex, keyring: Keyring): Promise<DevCredentials> {
  if (existsSync(FILE)) {
    const saved = JSON.parse(readFileSync(FILE, 'utf8')) as Partial<DevCredentials>;
    if (saved.oauth && (await stillValid(db, saved as DevCredentials)))
      return saved as DevCredentials;
  }
  const fresh = await create(db, keyring);
  mkdirSync('.local', { recursive: true });
  writeFileSync(FILE, JSON.stringify(fresh, null, 2) + '\n', { mode: 0o600 });
  return fresh;
}
