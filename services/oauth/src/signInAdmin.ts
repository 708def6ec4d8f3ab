// Operator actions on sign-in behind the admin CLI: a community's second-factor policy, login
// limits and branding, a client's name, and account recovery (unlock, new password, factors
// reset, TOTP enrolment). Every action on an account is written to the platform's audit log.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Knex } from '@idv/db';
import { appendAudit, NotFoundInPlatform, TenantStore, type Community } from '@idv/platform';
import { clientName, OauthAdminError, type OauthAdminContext } from './admin.ts';
import { secondFactorSubject, signInKeys } from './login/signInKeys.ts';
import { LoginLimitsInvalid, LoginThrottle, loginLimits } from './login/throttle.ts';
import { AccountStore, type Account } from './store/accountStore.ts';
import { ClientStore } from './store/clientStore.ts';
import { FactorStore, type FactorKind } from './store/factorStore.ts';
import { revokeAccount } from './store/modelStore.ts';
import {
  FACTOR_KINDS,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  MFA_POLICIES,
  SignInSettingsStore,
  type MfaPolicy,
} from './store/signInSettings.ts';

export interface SignInAdminContext extends OauthAdminContext {
  /** MASTER_KEY: the keys of the login throttle and recovery codes derive from it */
  masterKey: Buffer;
  /** OPERATORS_COMMUNITY */
  operatorsCommunity: string;
  /** who runs the command, for the audit log */
  actor: string;
}

/** The account's factors, as the service keeps them (its recovery codes' MAC key too). */
const factorStore = (ctx: SignInAdminContext) =>
  new FactorStore(ctx.db, ctx.keyring, signInKeys(ctx.masterKey).recoveryCodes);

async function community(db: Knex, name: string): Promise<Community> {
  const found = await new TenantStore(db).findCommunityByName(name);
  if (!found) throw new NotFoundInPlatform(`community ${name} does not exist`);
  return found;
}

const settingsStore = (ctx: SignInAdminContext) =>
  new SignInSettingsStore(ctx.db, ctx.operatorsCommunity);

/** A change of a community's sign-in settings, in the audit log (what changed, never a secret). */
const auditCommunity = (
  ctx: SignInAdminContext,
  found: Community,
  action: string,
  details: Record<string, unknown>,
) =>
  appendAudit(ctx.db, {
    actor: ctx.actor,
    action,
    communityId: found.id,
    subject: { kind: 'community', id: found.id },
    details,
  });

export async function setMfaPolicy(
  ctx: SignInAdminContext,
  input: { community: string; policy: string; factors: string[] },
) {
  if (!(MFA_POLICIES as readonly string[]).includes(input.policy))
    throw new OauthAdminError(`--policy must be one of ${MFA_POLICIES.join(', ')}`);
  const unknown = input.factors.find((f) => !(FACTOR_KINDS as readonly string[]).includes(f));
  if (unknown) throw new OauthAdminError(`--factor must be one of ${FACTOR_KINDS.join(', ')}`);
  const found = await community(ctx.db, input.community);
  const factors = input.factors.length ? ([...new Set(input.factors)] as FactorKind[]) : undefined;
  const store = settingsStore(ctx);
  await store.setMfa(found.id, input.policy as MfaPolicy, factors);
  const { mfaPolicy, mfaFactors } = await store.get(found);
  await auditCommunity(ctx, found, 'oauth.community.mfa_set', {
    policy: mfaPolicy,
    factors: mfaFactors,
  });
  // accounts whose only second factors stop counting sign in without them (or enrol anew)
  const uncounted = (await ctx
    .db('oauth.account_factors')
    .where({ community_id: found.id })
    .whereNotIn('kind', mfaFactors)
    .countDistinct('account_id as n')
    .first()) as { n: string | number } | undefined;
  const accountsWithUncountedFactors = Number(uncounted?.n ?? 0);
  if (accountsWithUncountedFactors > 0)
    console.error(
      `warning: ${accountsWithUncountedFactors} account(s) have second factors of kinds that no longer count`,
    );
  return {
    community: found.name,
    policy: mfaPolicy,
    factors: mfaFactors,
    accountsWithUncountedFactors,
  };
}

/** `--lock-after 5 --lock-minutes 30`... as LoginLimits members; `reset` goes back to the defaults. */
export async function setLoginLimits(
  ctx: SignInAdminContext,
  input: { community: string; limits: Record<string, string>; reset: boolean },
) {
  const found = await community(ctx.db, input.community);
  const given = Object.fromEntries(
    Object.entries(input.limits).map(([name, value]) => [name, Number(value)]),
  );
  let limits;
  try {
    limits = input.reset ? null : loginLimits(given);
  } catch (err) {
    if (err instanceof LoginLimitsInvalid) throw new OauthAdminError(err.message);
    throw err;
  }
  const store = settingsStore(ctx);
  await store.setLimits(found.id, limits);
  const applied = (await store.get(found)).limits;
  await auditCommunity(ctx, found, 'oauth.community.login_limits_set', { limits: applied });
  return { community: found.name, limits: applied };
}

function logoFile(path: string): { type: string; bytes: Buffer } {
  const bytes = readFileSync(path);
  if (bytes.length > LOGO_MAX_BYTES)
    throw new OauthAdminError(`--logo must be at most ${LOGO_MAX_BYTES / 1024} KiB`);
  const type = bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))
    ? 'image/png'
    : bytes[0] === 0xff && bytes[1] === 0xd8
      ? 'image/jpeg'
      : bytes.subarray(0, 4).toString() === 'RIFF' && bytes.subarray(8, 12).toString() === 'WEBP'
        ? 'image/webp'
        : undefined;
  if (!type || !(LOGO_TYPES as readonly string[]).includes(type))
    throw new OauthAdminError('--logo must be a PNG, JPEG or WebP file');
  return { type, bytes };
}

export async function setBranding(
  ctx: SignInAdminContext,
  input: { community: string; displayName?: string; accentColor?: string; logo?: string | null },
) {
  const found = await community(ctx.db, input.community);
  if (input.accentColor !== undefined && !/^#[0-9a-fA-F]{6}$/.test(input.accentColor))
    throw new OauthAdminError('--accent-color must be #rrggbb');
  const displayName = input.displayName === undefined ? undefined : clientName(input.displayName);
  const store = settingsStore(ctx);
  await store.setBranding(found.id, {
    ...(displayName !== undefined ? { displayName } : {}),
    ...(input.accentColor !== undefined ? { accentColor: input.accentColor.toLowerCase() } : {}),
    ...(input.logo !== undefined
      ? { logo: input.logo === null ? null : logoFile(input.logo) }
      : {}),
  });
  const settings = await store.get(found);
  await auditCommunity(ctx, found, 'oauth.community.branding_set', {
    displayName: input.displayName !== undefined,
    accentColor: input.accentColor !== undefined,
    logo: input.logo !== undefined,
  });
  return {
    community: found.name,
    displayName: settings.displayName ?? found.name,
    accentColor: settings.accentColor,
    logo: settings.logoVersion !== null,
  };
}

export async function renameClient(
  ctx: SignInAdminContext,
  input: { community: string; clientId: string; name: string },
) {
  const found = await community(ctx.db, input.community);
  const name = clientName(input.name);
  if (!(await new ClientStore(ctx.db, ctx.keyring).rename(found.id, input.clientId, name)))
    throw new NotFoundInPlatform(`client ${input.clientId} does not exist in ${found.name}`);
  return { client_id: input.clientId, client_name: name };
}

async function account(ctx: SignInAdminContext, communityName: string, username: string) {
  const found = await community(ctx.db, communityName);
  const known = await new AccountStore(ctx.db).findByUsername(found.id, username);
  if (!known) throw new NotFoundInPlatform(`no account ${username} in ${found.name}`);
  return { community: found, account: known };
}

/** One audited action on an account, in one transaction with its audit row. */
async function audited<T>(
  ctx: SignInAdminContext,
  target: { community: Community; account: Account },
  action: string,
  change: (trx: Knex) => Promise<{ result: T; details?: Record<string, unknown> }>,
): Promise<T> {
  return ctx.db.transaction(async (trx) => {
    const { result, details } = await change(trx);
    await appendAudit(trx, {
      actor: ctx.actor,
      action,
      communityId: target.community.id,
      subject: { kind: 'oauth-account', id: target.account.accountId },
      ...(details ? { details } : {}),
    });
    return result;
  });
}

export async function unlockAccount(
  ctx: SignInAdminContext,
  input: { community: string; username: string },
) {
  const target = await account(ctx, input.community, input.username);
  const throttle = new LoginThrottle(ctx.db, signInKeys(ctx.masterKey).throttle);
  const { accountId } = target.account;
  return audited(ctx, target, 'oauth.account.unlocked', async () => {
    const held = await throttle.unlock(target.community.id, input.username);
    // the second factors count under a subject of their own
    const heldSecond = await throttle.unlock(target.community.id, secondFactorSubject(accountId));
    return {
      result: { unlocked: true, wasLocked: held || heldSecond },
      details: { wasLocked: held || heldSecond },
    };
  });
}

export async function resetPassword(
  ctx: SignInAdminContext,
  input: { community: string; username: string; password?: string },
) {
  if (input.password !== undefined && input.password.length < 8)
    throw new OauthAdminError('--password needs at least 8 characters');
  const target = await account(ctx, input.community, input.username);
  const password = input.password ?? randomBytes(15).toString('base64url');
  return audited(ctx, target, 'oauth.account.password_reset', async (trx) => {
    await new AccountStore(ctx.db).setPassword(
      target.community.id,
      target.account.accountId,
      password,
      trx,
    );
    const revoked = await revokeAccount(trx, target.community.id, target.account.accountId);
    return { result: { username: input.username, password, revoked }, details: { revoked } };
  });
}

export async function resetFactors(
  ctx: SignInAdminContext,
  input: { community: string; username: string },
) {
  const target = await account(ctx, input.community, input.username);
  const { id } = target.community;
  const { accountId } = target.account;
  const factors = factorStore(ctx);
  return audited(ctx, target, 'oauth.account.factors_reset', async (trx) => {
    const removed = await factors.resetAll(id, accountId, trx);
    await new AccountStore(ctx.db).credentialsChanged(id, accountId, trx);
    const revoked = await revokeAccount(trx, id, accountId);
    return {
      result: { username: input.username, factorsRemoved: removed, revoked },
      details: { factorsRemoved: removed, revoked },
    };
  });
}

/**
 * Enrols a TOTP factor for the account (development and tests: `make run` enrols its operator)
 * and answers its secret, once.
 */
export async function enrolTotp(
  ctx: SignInAdminContext,
  input: { community: string; username: string },
) {
  const target = await account(ctx, input.community, input.username);
  const { id } = target.community;
  const { accountId } = target.account;
  const factors = factorStore(ctx);
  const secret = factors.newTotpSecret();
  const { generate } = await import('otplib');
  // confirmed with the last step's code, so the code of this step still signs in
  const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
  const factor = await factors.confirmTotp(id, accountId, secret, code, 'Authenticator app');
  if (!factor) throw new Error('a TOTP code made now was refused');
  await appendAudit(ctx.db, {
    actor: ctx.actor,
    action: 'oauth.account.totp_enrolled',
    communityId: id,
    subject: { kind: 'oauth-account', id: accountId },
    details: { factorId: factor.factorId },
  });
  return { username: input.username, factorId: factor.factorId, totpSecret: secret };
}
