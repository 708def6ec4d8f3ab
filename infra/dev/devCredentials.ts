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
import { createOperator, operatorsCommunity } from '../../services/oauth/src/operatorAdmin.ts';
import { enrolTotp, setBranding } from '../../services/oauth/src/signInAdmin.ts';
import { OperatorStore } from '../../services/oauth/src/store/operatorStore.ts';
import { AccountStore } from '../../services/oauth/src/store/accountStore.ts';

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
  /** the platform operator of the operators community (DESIGN 2.5, 2.6), TOTP enrolled */
  operator: {
    community: string;
    username: string;
    password: string;
    totpSecret: string;
    /** the console's roles (DESIGN 2.5): admin, across every community */
    roles: string[];
  };
  /** the operator console (DESIGN 2.5), a confidential client of the operators' issuer */
  console: { url: string; clientId: string; clientSecret: string };
}

/** What the operator's actions need beyond the keyring. */
export interface DevOperatorSettings {
  masterKey: Buffer;
  operatorsCommunity: string;
  /** where the console is opened (CONSOLE_PUBLIC_URL) */
  consoleUrl: string;
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

async function create(
  db: Knex,
  keyring: Keyring,
): Promise<Omit<DevCredentials, 'operator' | 'console'>> {
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

/**
 * The operators community (under a tenant of its own) and a dev operator signing in with a
 * password and TOTP, as the console's operators do; kept while the account exists.
 */
async function devOperator(
  db: Knex,
  keyring: Keyring,
  settings: DevOperatorSettings,
  saved: DevCredentials['operator'] | undefined,
): Promise<DevCredentials['operator']> {
  const ctx = { db, keyring, ...settings, actor: 'make-run' };
  const community = await operatorsCommunity(ctx);
  const operators = new OperatorStore(db);
  if (saved && saved.community === community.name) {
    const account = await new AccountStore(db).findByUsername(community.id, saved.username);
    if (account) {
      // an operator saved before operators had roles gets the admin role
      if (!(await operators.find(community.id, account.accountId)))
        await operators.set(community.id, account.accountId, { roles: ['admin'], communities: [] });
      const { community: name, username, password, totpSecret } = saved;
      return { community: name, username, password, totpSecret, roles: ['admin'] };
    }
  }
  await setBranding(ctx, { community: community.name, displayName: 'Platform operators' });
  const username = `operator-${Date.now().toString(36)}`;
  const { password } = await createOperator(ctx, { username, roles: ['admin'], communities: [] });
  const { totpSecret } = await enrolTotp(ctx, { community: community.name, username });
  return { community: community.name, username, password, totpSecret, roles: ['admin'] };
}

/** The console's client, kept while it exists and still sends people back to the console's URL. */
async function consoleClient(
  db: Knex,
  keyring: Keyring,
  settings: DevOperatorSettings,
  saved: DevCredentials['console'] | undefined,
): Promise<DevCredentials['console']> {
  const redirectUri = `${settings.consoleUrl}/auth/callback`;
  if (saved?.url === settings.consoleUrl) {
    const row = (await db('oauth.clients').where({ client_id: saved.clientId }).first()) as
      { metadata: { redirect_uris: string[] } } | undefined;
    if (row?.metadata.redirect_uris.includes(redirectUri)) return saved;
  }
  const made = await createOauthClient(
    { db, keyring, operatorsCommunity: settings.operatorsCommunity },
    {
      community: settings.operatorsCommunity,
      redirectUris: [redirectUri],
      grantTypes: ['authorization_code', 'refresh_token'],
      name: 'Operator console',
      console: true,
    },
  );
  return { url: settings.consoleUrl, clientId: made.client_id, clientSecret: made.client_secret };
}

export async function devCredentials(
  db: Knex,
  keyring: Keyring,
  settings: DevOperatorSettings,
): Promise<DevCredentials> {
  let saved: Partial<DevCredentials> | undefined;
  if (existsSync(FILE)) {
    const read = JSON.parse(readFileSync(FILE, 'utf8')) as Partial<DevCredentials>;
    if (read.oauth && (await stillValid(db, read as DevCredentials))) saved = read;
  }
  const base = saved ?? (await create(db, keyring));
  const operator = await devOperator(db, keyring, settings, saved?.operator);
  const consoleApp = await consoleClient(db, keyring, settings, saved?.console);
  const credentials = { ...(base as DevCredentials), operator, console: consoleApp };
  mkdirSync('.local', { recursive: true });
  writeFileSync(FILE, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return credentials;
}
