// The admin commands of DESIGN 2.3; each takes parsed options and answers a JSON-ready object.
import { userInfo } from 'node:os';
import { loadConfig, PlatformConfig, type MasterKey } from '@idv/config';
import { imageUrlHostList } from '@idv/contracts';
import { generateKeyPair } from '@idv/crypto';
import type { Knex } from '@idv/db';
import { ImageUrlHostStore } from '../../docverify-gateway/src/verify/imageUrlHostStore.ts';
import {
  createOauthAccount,
  createOauthClient,
  OauthAdminError,
  rotateSigningKey,
  setExternalIdp,
  trustProofKey,
} from '../../oauth/src/admin.ts';
import {
  enrolTotp,
  renameClient,
  resetFactors,
  resetPassword,
  setBranding,
  setLoginLimits,
  setMfaPolicy,
  unlockAccount,
  type SignInAdminContext,
} from '../../oauth/src/signInAdmin.ts';
import { DEFAULT_LOGIN_LIMITS } from '../../oauth/src/login/throttle.ts';
import { createOperator } from '../../oauth/src/operatorAdmin.ts';
import {
  countLegacyValues,
  InvalidInPlatform,
  LICENCE_LEVELS,
  LicenceStore,
  createKeyring,
  migrateLegacyValues,
  NotFoundInPlatform,
  RATE_SCOPES,
  RateLimitStore,
  KeyRefused,
  SERVICE_NAMES,
  ServiceKeyStore,
  TenantStore,
  UUID,
  type LicenceLevel,
  type Keyring,
  type KeyProviderSettings,
  type RateLimit,
  type RateScope,
  type RateSubject,
  type ServiceName,
} from '@idv/platform';
import { auditCommands } from './auditCommands.ts';
import { SEALED_COLUMNS } from './sealedColumns.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The oauth operator actions report bad input as usage errors (exit 2). */
async function oauthAdmin<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof OauthAdminError) throw new UsageError(err.message);
    throw err;
  }
}

export type Options = Record<string, string[]>;

export interface CommandContext {
  db: Knex;
  master: MasterKey;
  /** the keyring of the configured key provider, opened at the first command that needs it */
  keyring: () => Promise<Keyring>;
}

/** The keyring the admin commands use: every sealed column of the platform is known to it. */
export function adminKeyring(
  db: Knex,
  master: MasterKey,
  settings: KeyProviderSettings,
): Promise<{ keyring: Keyring; close: () => void }> {
  return createKeyring(db, master.key, settings, {
    adoptInitialKey: master.development,
    legacyColumns: SEALED_COLUMNS,
    warn: (line) => console.error(line),
  });
}

/** What the oauth operator actions need: the database and the keyring secrets are sealed under. */
const oauthContext = async (ctx: CommandContext) => ({
  db: ctx.db,
  keyring: await ctx.keyring(),
  operatorsCommunity: loadConfig(PlatformConfig).OPERATORS_COMMUNITY,
});

/** The sign-in actions also need MASTER_KEY (their MACs' keys) and who runs them (the audit log). */
const signInContext = async (ctx: CommandContext): Promise<SignInAdminContext> => ({
  ...(await oauthContext(ctx)),
  masterKey: ctx.master.key,
  operatorsCommunity: loadConfig(PlatformConfig).OPERATORS_COMMUNITY,
  actor: `admin-cli:${process.env.IDV_ADMIN_ACTOR ?? userInfo().username}`,
});

/** `--lock-after 5` for the member lockAfter of the login limits. */
const LIMIT_OPTIONS = Object.keys(DEFAULT_LOGIN_LIMITS).map((member) => ({
  member,
  option: member.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
}));

/** Progress of a re-wrap on stderr (stdout keeps the one JSON answer). */
const rewrapProgress = (done: number) => console.error(JSON.stringify({ rewrapped: done }));

/** Refusals of the keyring are the operator's to fix: exit 1 with the reason. */
async function keyAdmin<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof KeyRefused) throw new InvalidInPlatform(err.message);
    throw err;
  }
}

function one(options: Options, name: string): string {
  const values = options[name];
  if (!values || values.length === 0 || !values[0]) throw new UsageError(`--${name} is required`);
  if (values.length > 1) throw new UsageError(`--${name} may be given once`);
  return values[0];
}

/**
 * A secret option: `--password -` reads it from standard input (its first line), so it stays out
 * of the shell history and of `ps`; a literal value still works for scripts and tests.
 */
async function secretOf(options: Options, name: string): Promise<string> {
  const value = one(options, name);
  if (value !== '-') return value;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError(`--${name} - read nothing from standard input`);
  return line;
}

function optional(options: Options, name: string): string | undefined {
  return options[name]?.[0];
}

/** `--name yes` or `--name no` (absent: no); anything else is a usage error. */
function yesNo(options: Options, name: string): boolean {
  const value = optional(options, name);
  if (value === undefined || value === 'no') return false;
  if (value === 'yes') return true;
  throw new UsageError(`--${name} must be yes or no`);
}

async function serviceKeyStore(ctx: CommandContext, options: Options): Promise<ServiceKeyStore> {
  const { db, master } = ctx;
  const service = one(options, 'service');
  if (!(SERVICE_NAMES as readonly string[]).includes(service)) {
    throw new UsageError(`--service must be one of ${SERVICE_NAMES.join(', ')}`);
  }
  return new ServiceKeyStore(db, await ctx.keyring(), service as ServiceName, {
    replaceUnreadable: master.development,
    warn: (line) => console.error(line),
  });
}

/** The id an existing subject of `scope` has, from what the operator gave; undefined: none. */
async function subjectId(db: Knex, scope: RateScope, value: string): Promise<string | undefined> {
  if (scope === 'licence') return new LicenceStore(db).idOf(value);
  const tenants = new TenantStore(db);
  if (scope === 'tenant') return (await tenants.findTenant(value))?.id;
  return UUID.test(value) ? (await tenants.findCommunityById(value))?.id : undefined;
}

/**
 * `--licence KEY_OR_ID`, `--community ID`, `--tenant ID` or `--images COMMUNITY_ID` (the
 * community's image budget), one of them, resolved to an existing subject.
 */
async function rateSubject({ db }: CommandContext, options: Options): Promise<RateSubject> {
  const given = RATE_SCOPES.filter((name) => options[name]);
  if (given.length !== 1)
    throw new UsageError(
      'give one of --licence KEY_OR_ID, --community ID, --tenant ID or --images COMMUNITY_ID',
    );
  const scope: RateScope = given[0]!;
  const value = one(options, scope);
  const id = await subjectId(db, scope, value);
  const what = scope === 'images' ? 'community' : scope;
  if (!id)
    throw new NotFoundInPlatform(`${what} ${scope === 'licence' ? '' : `${value} `}not found`);
  return { scope, id };
}

/** The limits the services apply where no operator set one (their RATE_LIMIT_* settings). */
function defaultRateLimits(): Record<RateScope, RateLimit> {
  const config = loadConfig(PlatformConfig);
  return {
    licence: { rps: config.RATE_LIMIT_LICENCE_RPS, burst: config.RATE_LIMIT_LICENCE_BURST },
    community: { rps: config.RATE_LIMIT_COMMUNITY_RPS, burst: config.RATE_LIMIT_COMMUNITY_BURST },
    tenant: { rps: config.RATE_LIMIT_TENANT_RPS, burst: config.RATE_LIMIT_TENANT_BURST },
    images: { rps: config.RATE_LIMIT_IMAGES_MBPS, burst: config.RATE_LIMIT_IMAGES_BURST },
  };
}

function rateOption(options: Options, name: string, whole: boolean): number | undefined {
  const raw = optional(options, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
    throw new UsageError(`--${name} must be ${whole ? 'a whole number' : 'a number'} above 0`);
  return value;
}

const COMMUNITY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

type Command = (ctx: CommandContext, options: Options) => Promise<unknown>;

export const commands: Record<string, Command> = {
  ...auditCommands,

  'tenant create': async ({ db }, options) =>
    new TenantStore(db).createTenant(one(options, 'name')),

  'community create': async ({ db }, options) => {
    const name = one(options, 'name');
    if (!COMMUNITY_NAME.test(name)) {
      throw new UsageError(
        '--name: letters, digits, _, - and . only, starting with a letter or digit, at most 63',
      );
    }
    // paths address communities by id: a name shaped like one could pass for another community
    if (UUID.test(name)) throw new UsageError('--name must not be shaped like an id (a UUID)');
    return new TenantStore(db).createCommunity(one(options, 'tenant'), name);
  },

  // gateways follow within their lookup cache (DOCVERIFY_LOOKUP_CACHE_MS, 5 s)
  'community image-hosts': async ({ db }, options) => {
    const communityId = one(options, 'community');
    if (!options.hosts) throw new UsageError('--hosts is required (--hosts "" removes the list)');
    const entries = options.hosts.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
    const { hosts, invalid } = imageUrlHostList(entries);
    if (invalid.length > 0)
      throw new UsageError(
        `--hosts: not a host or *.domain: ${invalid.join(', ')} (e.g. images.example.com,*.cdn.example.com)`,
      );
    if (!(await new TenantStore(db).findCommunityById(communityId)))
      throw new NotFoundInPlatform(`community ${communityId} not found`);
    await new ImageUrlHostStore(db).set(communityId, hosts);
    return { community: communityId, imageUrlHosts: hosts };
  },

  'license create': async ({ db }, options) => {
    const level = one(options, 'level');
    if (!(LICENCE_LEVELS as readonly string[]).includes(level)) {
      throw new UsageError(`--level must be one of ${LICENCE_LEVELS.join(', ')}`);
    }
    const communityIds = options.community ?? [];
    if (level !== 'system' && communityIds.length === 0) {
      throw new UsageError(`a ${level} licence needs at least one --community`);
    }
    const expires = optional(options, 'expires');
    const expiresAt = expires ? new Date(expires) : undefined;
    if (expiresAt && Number.isNaN(expiresAt.getTime()))
      throw new UsageError('--expires must be an ISO date');
    const { licenseKey, licence } = await new LicenceStore(db).create({
      level: level as LicenceLevel,
      communityIds,
      expiresAt,
    });
    return {
      licenseKey,
      level: licence.level,
      communities: licence.communities.map((c) => c.id),
      expiresAt: licence.expiresAt ? licence.expiresAt.toISOString() : null,
    };
  },

  // a new key-encryption key, current from now on (services follow within 5 s, no restart), and
  // every data key re-wrapped under it, a batch at a time, progress on stderr
  'master-key rotate': async (ctx, options) => {
    const keyring = await ctx.keyring();
    const existing = optional(options, 'key-id');
    const keyId = await keyAdmin(() => keyring.rotate(existing));
    const rewrapped = await keyring.rewrap({ progress: rewrapProgress });
    return { keyId, rewrapped };
  },

  // what a rotation left (data keys a service wrapped under the old key within its 5 s refresh)
  'master-key rewrap': async (ctx) => ({
    rewrapped: await (await ctx.keyring()).rewrap({ progress: rewrapProgress }),
  }),

  'master-key status': async (ctx) => (await ctx.keyring()).status(),

  // the values sealed under MASTER_KEY alone before envelopes (mk1:), moved under data keys;
  // resumable (what is left is what still starts with mk1:), progress on stderr; every migrate
  // runs it too
  'master-key migrate': async (ctx) => {
    const keyring = await ctx.keyring();
    const progress = (moved: number, column: string) =>
      console.error(JSON.stringify({ resealed: moved, column }));
    const resealed = await migrateLegacyValues(ctx.db, keyring, SEALED_COLUMNS, { progress });
    return { resealed, remaining: await countLegacyValues(ctx.db, SEALED_COLUMNS) };
  },

  'master-key retire': async (ctx, options) => {
    const keyId = one(options, 'key-id');
    const keyring = await ctx.keyring();
    await keyAdmin(() => keyring.retire(keyId));
    return { keyId, retired: true };
  },

  // running replicas apply it at their next sync of the bucket (RATE_LIMIT_SYNC_MS, 100 ms)
  'ratelimit set': async (ctx, options) => {
    const subject = await rateSubject(ctx, options);
    const rps = rateOption(options, 'rps', false);
    if (rps === undefined) throw new UsageError('--rps is required');
    const given = rateOption(options, 'burst', true);
    // an image budget of one second's megabytes would not hold one photo: say it
    if (subject.scope === 'images' && given === undefined)
      throw new UsageError('--images needs --burst (megabytes at once: 48 for a 12 MP photo)');
    const burst = given ?? Math.max(1, Math.ceil(rps));
    return new RateLimitStore(ctx.db).set(subject, { rps, burst });
  },

  'ratelimit unset': async (ctx, options) => {
    const subject = await rateSubject(ctx, options);
    const removed = await new RateLimitStore(ctx.db).unset(subject);
    return { ...subject, removed, ...defaultRateLimits()[subject.scope], source: 'default' };
  },

  'ratelimit show': async (ctx, options) => {
    const store = new RateLimitStore(ctx.db);
    if (!RATE_SCOPES.some((scope) => options[scope]))
      return { defaults: defaultRateLimits(), limits: await store.list() };
    const subject = await rateSubject(ctx, options);
    const set = await store.get(subject);
    if (set) return { ...set, source: 'operator' };
    return { ...subject, ...defaultRateLimits()[subject.scope], source: 'default' };
  },

  'servicekey show': async (ctx, options) =>
    (await (await serviceKeyStore(ctx, options)).currentKey()).key,

  // running replicas refuse the ended keys at their next re-read of the keys (5 s)
  'servicekey end-grace': async (ctx, options) => (await serviceKeyStore(ctx, options)).endGrace(),

  'keypair create': async () => generateKeyPair(),

  'oauth-client create': async (ctx, options) =>
    oauthAdmin(async () =>
      createOauthClient(await oauthContext(ctx), {
        community: one(options, 'community'),
        redirectUris: options['redirect-uri'] ?? [],
        grantTypes: options['grant-type'] ?? [],
        ...(optional(options, 'name') !== undefined ? { name: optional(options, 'name')! } : {}),
        console: yesNo(options, 'console'),
      }),
    ),

  'oauth-client name': async (ctx, options) =>
    oauthAdmin(async () =>
      renameClient(await signInContext(ctx), {
        community: one(options, 'community'),
        clientId: one(options, 'client-id'),
        name: one(options, 'name'),
      }),
    ),

  'community mfa': async (ctx, options) =>
    oauthAdmin(async () =>
      setMfaPolicy(await signInContext(ctx), {
        community: one(options, 'community'),
        policy: one(options, 'policy'),
        factors: options.factor ?? [],
      }),
    ),

  'community login-limits': async (ctx, options) =>
    oauthAdmin(async () =>
      setLoginLimits(await signInContext(ctx), {
        community: one(options, 'community'),
        limits: Object.fromEntries(
          LIMIT_OPTIONS.filter(({ option }) => options[option]).map(({ member, option }) => [
            member,
            one(options, option),
          ]),
        ),
        reset: optional(options, 'defaults') === 'yes',
      }),
    ),

  'community branding': async (ctx, options) =>
    oauthAdmin(async () => {
      const logo = optional(options, 'logo');
      return setBranding(await signInContext(ctx), {
        community: one(options, 'community'),
        ...(options['display-name'] ? { displayName: one(options, 'display-name') } : {}),
        ...(options['accent-color'] ? { accentColor: one(options, 'accent-color') } : {}),
        ...(logo !== undefined ? { logo: logo === '' ? null : logo } : {}),
      });
    }),

  'operator create': async (ctx, options) =>
    oauthAdmin(async () =>
      createOperator(await signInContext(ctx), {
        username: one(options, 'username'),
        roles: options.role ?? [],
        communities: options.community ?? [],
        ...(options.password ? { password: await secretOf(options, 'password') } : {}),
      }),
    ),

  'oauth-account unlock': async (ctx, options) =>
    unlockAccount(await signInContext(ctx), {
      community: one(options, 'community'),
      username: one(options, 'username'),
    }),

  'oauth-account reset-password': async (ctx, options) =>
    oauthAdmin(async () =>
      resetPassword(await signInContext(ctx), {
        community: one(options, 'community'),
        username: one(options, 'username'),
        ...(options.password ? { password: await secretOf(options, 'password') } : {}),
      }),
    ),

  'oauth-account reset-factors': async (ctx, options) =>
    resetFactors(await signInContext(ctx), {
      community: one(options, 'community'),
      username: one(options, 'username'),
    }),

  'oauth-account enrol-totp': async (ctx, options) =>
    enrolTotp(await signInContext(ctx), {
      community: one(options, 'community'),
      username: one(options, 'username'),
    }),

  'oauth-account create': async (ctx, options) =>
    oauthAdmin(async () =>
      createOauthAccount(await oauthContext(ctx), {
        community: one(options, 'community'),
        username: one(options, 'username'),
        password: await secretOf(options, 'password'),
        ...(optional(options, 'name') ? { displayName: optional(options, 'name')! } : {}),
      }),
    ),

  'oauth-key rotate': async (ctx, options) =>
    oauthAdmin(async () => rotateSigningKey(await oauthContext(ctx), one(options, 'community'))),

  'oauth-idp set': async (ctx, options) =>
    oauthAdmin(async () =>
      setExternalIdp(await oauthContext(ctx), one(options, 'community'), {
        issuer: one(options, 'issuer'),
        audience: one(options, 'audience'),
        jwksUri: one(options, 'jwks-uri'),
      }),
    ),

  'oauth-proof-key trust': async (ctx, options) =>
    oauthAdmin(async () =>
      trustProofKey(
        await oauthContext(ctx),
        one(options, 'community'),
        one(options, 'kid'),
        one(options, 'public-key'),
      ),
    ),
};
