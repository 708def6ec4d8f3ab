// A ready-to-use dev tenant, community, licences and caller key pair, kept in .local/ and
// reused across runs while they still exist in the database.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPair, type KeyPair } from '@idv/crypto';
import type { Knex } from '@idv/db';
import { LicenceStore, TenantStore, type Community, type Tenant } from '@idv/platform';

export interface DevCredentials {
  tenant: Tenant;
  community: Community;
  licences: { system: string; service: string };
  caller: KeyPair;
}

const FILE = '.local/dev-credentials.json';

async function stillValid(db: Knex, saved: DevCredentials): Promise<boolean> {
  const licences = new LicenceStore(db, 0);
  const community = await new TenantStore(db).findCommunity(saved.community.id);
  if (!community) return false;
  const checks = await Promise.all([
    licences.check(saved.licences.system),
    licences.check(saved.licences.service),
  ]);
  return checks.every((c) => c.ok);
}

async function create(db: Knex): Promise<DevCredentials> {
  const tenants = new TenantStore(db);
  const suffix = Date.now().toString(36);
  const tenant = await tenants.createTenant(`dev-tenant-${suffix}`);
  const community = await tenants.createCommunity(tenant.id, `dev-community-${suffix}`);
  const licences = new LicenceStore(db);
  const system = await licences.create({ level: 'system', communityIds: [] });
  const service = await licences.create({ level: 'service', communityIds: [community.id] });
  return {
    tenant,
    community,
    licences: { system: system.licenseKey, service: service.licenseKey },
    caller: generateKeyPair(),
  };
}

export async function devCredentials(db: Knex): Promise<DevCredentials> {
  if (existsSync(FILE)) {
    const saved = JSON.parse(readFileSync(FILE, 'utf8')) as DevCredentials;
    if (await stillValid(db, saved)) return saved;
  }
  const fresh = await create(db);
  mkdirSync('.local', { recursive: true });
  writeFileSync(FILE, JSON.stringify(fresh, null, 2) + '\n', { mode: 0o600 });
  return fresh;
}
