// Second factors of a sign-in (issue 27): TOTP secrets sealed under the account's data key, passkeys
// (WebAuthn) with their sign counts, and recovery codes kept only as HMACs; every row per community.
import { createHmac, randomInt } from 'node:crypto';
import type { Knex } from '@idv/db';
import type { Keyring, KeyOwner } from '@idv/platform';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { generateSecret, generateURI, verify as verifyOtp } from 'otplib';

const FACTORS = 'oauth.account_factors';
const RECOVERY = 'oauth.recovery_codes';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export type FactorKind = 'totp' | 'webauthn';

export interface Factor {
  factorId: string;
  kind: FactorKind;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface WebauthnParty {
  rpID: string;
  rpName: string;
  origin: string;
}

interface FactorRow {
  factor_id: string;
  kind: FactorKind;
  label: string;
  created_at: Date;
  last_used_at: Date | null;
}

const FACTOR_COLUMNS = ['factor_id', 'kind', 'label', 'created_at', 'last_used_at'];

const toFactor = (row: FactorRow): Factor => ({
  factorId: row.factor_id,
  kind: row.kind,
  label: row.label,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** A label as a person typed it, without what text columns refuse (NUL) or pages garble. */
const storableLabel = (label: unknown, fallback: string): string =>
  (typeof label === 'string' ? [...label].filter((c) => c >= ' ' && c !== '\u007f') : [])
    .slice(0, 64)
    .join('')
    .trim() || fallback;

// ---- TOTP (RFC 6238 as authenticator apps use it: SHA-1, 6 digits, 30 s steps) ----

const PERIOD = 30;
const accountOwner = (accountId: string): KeyOwner => ({ kind: 'oauth-account', id: accountId });
const totpContext = (communityId: string, accountId: string) =>
  `oauth-totp:${communityId}:${accountId}`;
const pendingTotpContext = (communityId: string, accountId: string) =>
  `oauth-totp-pending:${communityId}:${accountId}`;

/** six digits as typed (spaces allowed), or undefined */
function totpCode(code: unknown): string | undefined {
  if (typeof code !== 'string' || code.length > 32) return undefined;
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * The time step `code` is right for, within one step either side of `epoch` (seconds) and after
 * `usedStep` (the last one used), or undefined.
 */
async function matchedStep(secret: string, code: string, epoch: number, usedStep?: number) {
  const current = Math.floor(epoch / PERIOD);
  if (usedStep !== undefined && usedStep >= current + 1) return undefined;
  try {
    const result = await verifyOtp({
      secret,
      token: code,
      epoch,
      epochTolerance: PERIOD,
      algorithm: 'sha1',
      digits: 6,
      period: PERIOD,
      ...(usedStep !== undefined && usedStep >= 0 ? { afterTimeStep: usedStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined; // not a secret otplib takes
  }
}

// ---- recovery codes ----

/** no 0/O, 1/I/L: a code read off paper is typed back right */
const RECOVERY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const RECOVERY_CODE = new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`);
const RECOVERY_SET_SIZE = 10;

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(31)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** the ten characters of a code however it was typed (case, dashes, spaces), or undefined */
function recoveryCode(code: unknown): string | undefined {
  if (typeof code !== 'string' || code.length > 64) return undefined;
  const chars = code.toUpperCase().replace(/[\s-]+/g, '');
  return RECOVERY_CODE.test(chars) ? chars : undefined;
}

// ---- WebAuthn responses as the browser sends them (JSON), checked before anything reads them ----

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const LIMITS = {
  id: 1366,
  clientData: 16_384,
  authData: 16_384,
  signature: 8192,
  handle: 128,
  attestation: 65_536,
};
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isBase64url = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.length <= max && BASE64URL.test(v);

/** the credential's id when `response` is shaped as a credential, or undefined */
function credentialOf(response: unknown): { id: string; body: Json } | undefined {
  if (!isObject(response) || !isObject(response.response)) return undefined;
  const { id, rawId, type } = response;
  if (!isBase64url(id, LIMITS.id) || rawId !== id || type !== 'public-key') return undefined;
  return { id, body: response.response };
}

function registrationOf(response: unknown): RegistrationResponseJSON | undefined {
  const credential = credentialOf(response);
  if (!credential) return undefined;
  const { clientDataJSON, attestationObject, transports } = credential.body;
  if (!isBase64url(clientDataJSON, LIMITS.clientData)) return undefined;
  if (!isBase64url(attestationObject, LIMITS.attestation)) return undefined;
  const known = Array.isArray(transports)
    ? transports.filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t))
    : [];
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: { clientDataJSON, attestationObject, transports: known },
    clientExtensionResults: {},
  };
}

function assertionOf(response: unknown): AuthenticationResponseJSON | undefined {
  const credential = credentialOf(response);
  if (!credential) return undefined;
  const { clientDataJSON, authenticatorData, signature, userHandle } = credential.body;
  if (!isBase64url(clientDataJSON, LIMITS.clientData)) return undefined;
  if (!isBase64url(authenticatorData, LIMITS.authData)) return undefined;
  if (!isBase64url(signature, LIMITS.signature)) return undefined;
  const handle =
    userHandle === undefined || userHandle === null || userHandle === '' ? undefined : userHandle;
  if (handle !== undefined && !isBase64url(handle, LIMITS.handle)) return undefined;
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON,
      authenticatorData,
      signature,
      ...(handle ? { userHandle: handle } : {}),
    },
    clientExtensionResults: {},
  };
}

/** the WebAuthn user handle of an account: the 16 bytes of its uuid */
const userHandleOf = (accountId: string): Buffer => Buffer.from(accountId.replace(/-/g, ''), 'hex');

interface TotpRow {
  factor_id: string;
  totp_secret_sealed: string;
  totp_last_step: number | null;
}

interface CredentialRow {
  factor_id: string;
  account_id: string;
  credential_id: string;
  public_key: Buffer;
  sign_count: number;
  transports: string[] | null;
}

export class FactorStore {
  /**
   * @param hmacKey the key of the recovery codes' HMACs
   * @param now the clock TOTP steps are counted by (ms since the epoch)
   */
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    private readonly hmacKey: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  async list(communityId: string, accountId: string): Promise<Factor[]> {
    if (!isUuid(accountId)) return [];
    const rows: FactorRow[] = await this.db(FACTORS)
      .where({ community_id: communityId, account_id: accountId })
      .orderBy([{ column: 'created_at' }, { column: 'factor_id' }])
      .select(FACTOR_COLUMNS);
    return rows.map(toFactor);
  }

  // ---- TOTP ----

  newTotpSecret(): string {
    return generateSecret({ length: 20 });
  }

  totpUri(input: { issuer: string; accountName: string; secret: string }): string {
    return generateURI({ issuer: input.issuer, label: input.accountName, secret: input.secret });
  }

  async sealPendingSecret(communityId: string, accountId: string, secret: string): Promise<string> {
    return this.keys.sealFor(
      accountOwner(accountId),
      secret,
      pendingTotpContext(communityId, accountId),
    );
  }

  async openPendingSecret(communityId: string, accountId: string, sealed: string): Promise<string> {
    return this.keys.open(sealed, pendingTotpContext(communityId, accountId));
  }

  async confirmTotp(
    communityId: string,
    accountId: string,
    secret: string,
    code: string,
    label: string,
  ): Promise<Factor | undefined> {
    const digits = totpCode(code);
    if (!digits) return undefined;
    const step = await matchedStep(secret, digits, Math.floor(this.now() / 1000));
    if (step === undefined) return undefined;
    const context = totpContext(communityId, accountId);
    const [row]: FactorRow[] = await this.db(FACTORS)
      .insert({
        community_id: communityId,
        account_id: accountId,
        kind: 'totp',
        label: storableLabel(label, 'Authenticator app'),
        totp_secret_sealed: await this.keys.sealFor(accountOwner(accountId), secret, context),
        totp_last_step: step,
      })
      .returning(FACTOR_COLUMNS);
    return row && toFactor(row);
  }

  async verifyTotp(
    communityId: string,
    accountId: string,
    code: string,
  ): Promise<{ factorId: string } | undefined> {
    const digits = totpCode(code);
    if (!digits || !isUuid(accountId)) return undefined;
    const where = { community_id: communityId, account_id: accountId, kind: 'totp' };
    const factors: TotpRow[] = await this.db(FACTORS)
      .where(where)
      .select('factor_id', 'totp_secret_sealed', 'totp_last_step');
    const epoch = Math.floor(this.now() / 1000);
    for (const factor of factors) {
      const secret = await this.keys.open(
        factor.totp_secret_sealed,
        totpContext(communityId, accountId),
      );
      const step = await matchedStep(secret, digits, epoch, factor.totp_last_step ?? undefined);
      if (step === undefined) continue;
      // the step moves forward once: a replay, or the same code twice at once, finds it moved
      const used = await this.db(FACTORS)
        .where({ ...where, factor_id: factor.factor_id })
        .andWhere((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step))
        .update({ totp_last_step: step, last_used_at: this.db.fn.now() }, ['factor_id']);
      if (used.length > 0) return { factorId: factor.factor_id };
    }
    return undefined;
  }

  // ---- recovery codes ----

  private recoveryHash(communityId: string, accountId: string, chars: string): Buffer {
    return createHmac('sha256', this.hmacKey)
      .update(`${communityId}|${accountId}|${chars}`)
      .digest();
  }

  async newRecoveryCodes(communityId: string, accountId: string, trx?: Knex): Promise<string[]> {
    const codes = new Set<string>();
    while (codes.size < RECOVERY_SET_SIZE) codes.add(newRecoveryCode());
    const account = { community_id: communityId, account_id: accountId };
    const replace = async (q: Knex) => {
      // two new sets at once for one account: one after the other, so only the last is left
      await q('oauth.accounts').where(account).forUpdate().first('account_id');
      await q(RECOVERY).where(account).delete();
      await q(RECOVERY).insert(
        [...codes].map((code) => ({
          ...account,
          code_hash: this.recoveryHash(communityId, accountId, recoveryCode(code)!),
        })),
      );
    };
    await (trx ? replace(trx) : this.db.transaction(replace));
    return [...codes];
  }

  async useRecoveryCode(communityId: string, accountId: string, code: string): Promise<boolean> {
    const chars = recoveryCode(code);
    if (!chars || !isUuid(accountId)) return false;
    const used = await this.db(RECOVERY)
      .where({
        community_id: communityId,
        account_id: accountId,
        code_hash: this.recoveryHash(communityId, accountId, chars),
      })
      .whereNull('used_at')
      .update({ used_at: this.db.fn.now() }, ['account_id']);
    return used.length > 0;
  }

  async recoveryCodesLeft(communityId: string, accountId: string): Promise<number> {
    const row = await this.db(RECOVERY)
      .where({ community_id: communityId, account_id: accountId })
      .whereNull('used_at')
      .count({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  // ---- passkeys (WebAuthn) ----

  private async credentials(communityId: string, accountId: string) {
    if (!isUuid(accountId)) return [];
    const rows: Pick<CredentialRow, 'credential_id' | 'transports'>[] = await this.db(FACTORS)
      .where({ community_id: communityId, account_id: accountId, kind: 'webauthn' })
      .orderBy('created_at')
      .select('credential_id', 'transports');
    return rows.map((row) => ({
      id: row.credential_id,
      ...(row.transports?.length ? { transports: row.transports } : {}),
    }));
  }

  async registrationOptions(
    party: WebauthnParty,
    account: { communityId: string; accountId: string; username: string; displayName: string },
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return generateRegistrationOptions({
      rpName: party.rpName,
      rpID: party.rpID,
      userID: new Uint8Array(userHandleOf(account.accountId)),
      userName: account.username,
      userDisplayName: account.displayName,
      attestationType: 'none',
      excludeCredentials: await this.credentials(account.communityId, account.accountId),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
  }

  async confirmWebauthn(
    party: WebauthnParty,
    account: { communityId: string; accountId: string },
    response: unknown,
    expectedChallenge: string,
    label: string,
  ): Promise<Factor | undefined> {
    const registration = registrationOf(response);
    if (!registration || typeof expectedChallenge !== 'string' || !expectedChallenge)
      return undefined;
    let credential;
    try {
      const result = await verifyRegistrationResponse({
        response: registration,
        expectedChallenge,
        expectedOrigin: party.origin,
        expectedRPID: party.rpID,
        requireUserVerification: false,
      });
      if (!result.verified) return undefined;
      credential = result.registrationInfo.credential;
    } catch {
      return undefined; // refused: the library says why, and why is no business of the caller
    }
    const [row]: FactorRow[] = await this.db(FACTORS)
      .insert({
        community_id: account.communityId,
        account_id: account.accountId,
        kind: 'webauthn',
        label: storableLabel(label, 'Passkey'),
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey),
        sign_count: credential.counter,
        transports: credential.transports ?? [],
      })
      .onConflict(['community_id', 'credential_id'])
      .ignore()
      .returning(FACTOR_COLUMNS);
    return row && toFactor(row);
  }

  async authenticationOptions(
    party: WebauthnParty,
    account?: { communityId: string; accountId: string },
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return generateAuthenticationOptions({
      rpID: party.rpID,
      allowCredentials: account
        ? await this.credentials(account.communityId, account.accountId)
        : [],
      userVerification: 'preferred',
    });
  }

  async verifyWebauthn(
    party: WebauthnParty,
    communityId: string,
    accountId: string | undefined,
    response: unknown,
    expectedChallenge: string,
  ): Promise<{ accountId: string; factorId: string; userVerified: boolean } | undefined> {
    const assertion = assertionOf(response);
    if (!assertion || typeof expectedChallenge !== 'string' || !expectedChallenge) return undefined;
    if (accountId !== undefined && !isUuid(accountId)) return undefined;
    const row: CredentialRow | undefined = await this.db(FACTORS)
      .where({ community_id: communityId, kind: 'webauthn', credential_id: assertion.id })
      .modify((q) => (accountId === undefined ? q : q.where({ account_id: accountId })))
      .first('factor_id', 'account_id', 'credential_id', 'public_key', 'sign_count', 'transports');
    if (!row) return undefined;
    // a sign-in without a username learns its account from the user handle the passkey keeps
    const handle = assertion.response.userHandle;
    if (handle === undefined && accountId === undefined) return undefined;
    if (handle !== undefined && handle !== userHandleOf(row.account_id).toString('base64url'))
      return undefined;
    let verified;
    try {
      const result = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge,
        expectedOrigin: party.origin,
        expectedRPID: party.rpID,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(row.public_key),
          counter: row.sign_count,
        },
        requireUserVerification: false,
      });
      if (!result.verified) return undefined;
      verified = result.authenticationInfo;
    } catch {
      return undefined; // includes a counter that did not grow: a cloned authenticator
    }
    // the counter moves forward once: the same assertion twice at once finds it moved
    const counter = verified.newCounter;
    const counted = await this.db(FACTORS)
      .where({ community_id: communityId, factor_id: row.factor_id })
      .modify((q) =>
        counter === 0 ? q.where('sign_count', 0) : q.where('sign_count', '<', counter),
      )
      .update({ sign_count: counter, last_used_at: this.db.fn.now() }, ['factor_id']);
    if (counted.length === 0) return undefined;
    return {
      accountId: row.account_id,
      factorId: row.factor_id,
      userVerified: verified.userVerified,
    };
  }

  // ---- removal ----

  async resetAll(communityId: string, accountId: string, trx?: Knex): Promise<number> {
    const account = { community_id: communityId, account_id: accountId };
    const reset = async (q: Knex) => {
      await q(RECOVERY).where(account).delete();
      return q(FACTORS).where(account).delete();
    };
    return trx ? reset(trx) : this.db.transaction(reset);
  }

  async remove(communityId: string, accountId: string, factorId: string): Promise<boolean> {
    if (!isUuid(factorId) || !isUuid(accountId)) return false;
    const removed = await this.db(FACTORS)
      .where({ community_id: communityId, account_id: accountId, factor_id: factorId })
      .delete();
    return removed > 0;
  }
}
