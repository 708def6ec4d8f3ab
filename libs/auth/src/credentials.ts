// Checks the credential headers of DESIGN 2.2 (publickey, licensekey, requestid) against the
// service keys (the current one, or a previous one still in its grace after a reset), the request
// a requestid may be bound to, the time window, the licence and the replay log, in that order; the
// replay log (the one write) can be left to the caller, after its own checks (rate limits).
import { DecryptError, decrypt, InvalidKeyError } from '@idv/crypto';
import { RequestId, validate } from '@idv/contracts';
import { CredentialRefused } from './refusal.ts';
import type {
  AcceptedServiceKey,
  Licence,
  LicenceStore,
  ReplayGuard,
  ServiceKeySet,
  ServiceKeyStore,
} from '@idv/platform';
import type { Request } from 'express';

export interface Credentials {
  licence: Licence;
  requestId: RequestId;
  callerPublicKey: string;
  /**
   * ECDH(the service key the caller used, caller key): opens this caller's bodies and encrypts
   * its answers, so a caller still on a previous key can read them with the key it has
   */
  sharedKey: Buffer;
  /** the service public key the caller made its headers with */
  servicePublicKey: string;
  /** the service public key /publickeys names as current */
  currentServicePublicKey: string;
  /** when the caller used a previous key: the moment that key stops being accepted */
  previousKeyAcceptedUntil?: Date;
}

export interface CredentialCheckDeps {
  serviceKeys: ServiceKeyStore;
  licences: LicenceStore;
  replay: ReplayGuard;
  /** seconds; ALLOWED_TIME_SPAN */
  allowedTimeSpan: number;
  nowSeconds?: () => number;
}

const LICENCE_REFUSALS = {
  unknown: 'licence is not known',
  disabled: 'licence is disabled',
  expired: 'licence has expired',
} as const;

function header(req: Request, name: string): string {
  const value = req.get(name)?.trim();
  if (!value) throw new CredentialRefused('missing_header', `missing header: ${name}`);
  return value;
}

function undecryptable(name: string): CredentialRefused {
  return new CredentialRefused(
    'undecryptable',
    `${name} does not decrypt with the service key and this publickey (after a key reset, fetch the current key from /publickeys)`,
  );
}

function open(sharedKey: Buffer, name: string, value: string): string {
  try {
    return decrypt(sharedKey, value);
  } catch (err) {
    if (err instanceof DecryptError) throw undecryptable(name);
    throw err;
  }
}

function agree(serviceKey: AcceptedServiceKey, callerPublicKey: string): Buffer {
  try {
    return serviceKey.agreement.sharedKey(callerPublicKey);
  } catch (err) {
    if (err instanceof InvalidKeyError)
      throw new CredentialRefused('bad_key', `publickey is invalid: ${err.message}`);
    throw err;
  }
}

interface KeyUsed {
  serviceKey: AcceptedServiceKey;
  sharedKey: Buffer;
  licenseKey: string;
}

/**
 * The service key the caller made `licensekey` with: the current one first, then each previous
 * key still accepted. AES-GCM authenticates, so only the right shared key opens it.
 */
function findKeyUsed(keys: ServiceKeySet, callerPublicKey: string, licensekey: string): KeyUsed {
  for (const serviceKey of [keys.current, ...keys.previous]) {
    const sharedKey = agree(serviceKey, callerPublicKey);
    try {
      return { serviceKey, sharedKey, licenseKey: decrypt(sharedKey, licensekey) };
    } catch (err) {
      if (!(err instanceof DecryptError)) throw err;
    }
  }
  throw undecryptable('licensekey');
}

function parseRequestId(plaintext: string): RequestId {
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    throw new CredentialRefused('bad_request_id', 'requestid is not JSON');
  }
  const result = validate(RequestId, parsed);
  if (!result.ok) {
    const issue = result.issues[0];
    throw new CredentialRefused(
      'bad_request_id',
      `requestid is invalid: ${issue ? `${issue.path || '/'} ${issue.message}` : 'bad shape'}`,
    );
  }
  return result.value;
}

/** The path a URL or path names, normalised as a URL parser does (query and host dropped). */
function pathOf(target: string): string | undefined {
  return URL.parse(target, 'http://path.invalid')?.pathname;
}

/**
 * htm and htu (DPoP's names) are optional: the vendor's helper sends neither, and such a
 * requestid stays good for any endpoint. A caller that sends them makes a captured requestid
 * useless anywhere but on the request it was made for.
 */
function checkBinding(req: Request, requestId: RequestId): void {
  const { htm, htu } = requestId;
  if (htm !== undefined && htm.toUpperCase() !== req.method) {
    throw new CredentialRefused('wrong_request', 'requestid is bound to another method (htm)');
  }
  if (htu !== undefined && pathOf(htu) !== pathOf(req.originalUrl)) {
    throw new CredentialRefused('wrong_request', 'requestid is bound to another path (htu)');
  }
}

/** Credentials checked but for the replay log, and the step that records their request id there. */
export interface OpenedCredentials {
  credentials: Credentials;
  /** writes the request id to the replay log; CredentialRefused (replay) when it was used before */
  recordUse(): Promise<void>;
}

/**
 * Every check but the replay log's, writing nothing, so a request refused later (a rate limit)
 * spends neither its request id nor a row; the guard records the use once the request is admitted.
 */
export async function openCredentials(
  req: Request,
  deps: CredentialCheckDeps,
): Promise<OpenedCredentials> {
  const callerPublicKey = header(req, 'publickey');
  const encryptedLicence = header(req, 'licensekey');
  const encryptedRequestId = header(req, 'requestid');

  const keys = await deps.serviceKeys.keySet();
  const { serviceKey, sharedKey, licenseKey } = findKeyUsed(
    keys,
    callerPublicKey,
    encryptedLicence,
  );
  const requestId = parseRequestId(open(sharedKey, 'requestid', encryptedRequestId));

  checkBinding(req, requestId);

  const now = (deps.nowSeconds ?? (() => Date.now() / 1000))();
  if (!Number.isFinite(requestId.ts) || Math.abs(now - requestId.ts) > deps.allowedTimeSpan) {
    throw new CredentialRefused(
      'stale',
      `requestid ts is outside the allowed time span of ${deps.allowedTimeSpan} s`,
    );
  }
  const verdict = await deps.licences.check(licenseKey);
  if (!verdict.ok)
    throw new CredentialRefused(`licence_${verdict.reason}`, LICENCE_REFUSALS[verdict.reason]);
  const keepUntil = Math.ceil(Math.max(now, requestId.ts) + deps.allowedTimeSpan + 1);
  const credentials: Credentials = {
    licence: verdict.licence,
    requestId,
    callerPublicKey,
    sharedKey,
    servicePublicKey: serviceKey.key.keyId,
    currentServicePublicKey: keys.current.key.keyId,
    ...(serviceKey.acceptedUntil ? { previousKeyAcceptedUntil: serviceKey.acceptedUntil } : {}),
  };
  const recordUse = async () => {
    if (!(await deps.replay.firstUse(requestId.uuid, keepUntil)))
      throw new CredentialRefused('replay', 'requestid uuid was already used (replay)');
  };
  return { credentials, recordUse };
}

/** All the checks, the replay log's included (which records the request id). */
export async function checkCredentials(
  req: Request,
  deps: CredentialCheckDeps,
): Promise<Credentials> {
  const opened = await openCredentials(req, deps);
  await opened.recordUse();
  return opened.credentials;
}
