// One secp256k1 key per service, sealed at rest; made on first use, replaced on reset, and
// re-read periodically so every replica follows a reset made by another. The key a reset replaces
// stays accepted for a grace period: callers cache public keys (for hours) and keep using them;
// an operator may end that grace at once (a leaked key).
import { generateKeyPair, KeyAgreement, publicKeyPoint } from '@idv/crypto';
import type { Knex } from '@idv/db';
import type { Keyring } from './keyring.ts';
import type { SealedColumn } from './legacySealed.ts';
import {
  dropRetired,
  insertCurrentIfAbsent,
  lockCurrent,
  pruneRetired,
  readCurrent,
  readRetired,
  replaceCurrent,
  retire,
  type RetiredKeyRow,
  type SealedKeyRow,
} from './serviceKeyRows.ts';

export const SERVICE_NAMES = ['oauth', 'docverify', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Resets within a grace keep every key still in it, up to this many (the oldest go first). */
export const MAX_PREVIOUS_SERVICE_KEYS = 5;

/** The /servicekeys shape: keyId is the public key, keySecret the private key. */
export interface ServiceKey {
  keyId: string;
  keySecret: string;
  tag: string;
  type: string;
}

export class ServiceKeyUnreadable extends Error {
  override name = 'ServiceKeyUnreadable';
}

/** A key callers may use: the current one, or a previous one still in its grace. */
export interface AcceptedServiceKey {
  key: ServiceKey;
  /** ECDH with callers' public keys, cached per caller */
  agreement: KeyAgreement;
  /** previous keys only: when it stops being accepted */
  acceptedUntil?: Date;
}

export interface PreviousServiceKey extends AcceptedServiceKey {
  acceptedUntil: Date;
}

export interface CurrentServiceKey extends AcceptedServiceKey {
  loadedAt: number;
}

export interface ServiceKeySet {
  current: AcceptedServiceKey;
  /** keys replaced by resets and still accepted, newest first */
  previous: PreviousServiceKey[];
}

export interface ServiceKeyStoreOptions {
  /** ms a loaded key is served from memory before re-reading (a reset elsewhere shows after this) */
  refreshMs?: number;
  /** seconds the key a reset() replaces stays accepted (SERVICE_KEY_GRACE_SECONDS); 0: none */
  graceSeconds?: number;
  /**
   * Development only: a key sealed under another master key (another checkout's dev key) is
   * replaced instead of refused, and `warn` says so.
   */
  replaceUnreadable?: boolean;
  warn?: (line: string) => void;
}

/** What ending the grace did (the JSON of the end-grace endpoint and admin command). */
export interface EndedGrace {
  service: ServiceName;
  /** the current key, the only one accepted now */
  publicKey: string;
  /** the previous keys it ended, newest first, with when their grace would have ended (ISO) */
  ended: { publicKey: string; acceptedUntil: string }[];
}

interface LoadedKeys extends ServiceKeySet {
  loadedAt: number;
}

type OpenedRetired = { key: ServiceKey; acceptedUntil: Date };

export class ServiceKeyStore {
  private readonly refreshMs: number;
  private readonly graceSeconds: number;
  private loaded: LoadedKeys | undefined;
  private loading: Promise<LoadedKeys> | undefined;
  /** bumped by reset(): a read that began before it must not overwrite what it installed */
  private generation = 0;

  constructor(
    private readonly db: Knex,
    /** each private key is sealed under a data key of its own */
    private readonly keyring: Keyring,
    readonly service: ServiceName,
    private readonly options: ServiceKeyStoreOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 5000;
    this.graceSeconds = options.graceSeconds ?? 0;
  }

  /** The current key; served from memory, re-read once `refreshMs` has passed. */
  async currentKey(): Promise<CurrentServiceKey> {
    const { current, loadedAt } = await this.keys();
    return { ...current, loadedAt };
  }

  /** The current key and the previous keys still accepted at `now` (ms). */
  async keySet(now = Date.now()): Promise<ServiceKeySet> {
    const { current, previous } = await this.keys();
    return { current, previous: previous.filter((p) => stillAccepted(p, now)) };
  }

  private keys(): Promise<LoadedKeys> {
    if (this.loaded && Date.now() - this.loaded.loadedAt < this.refreshMs) {
      return Promise.resolve(this.loaded);
    }
    // callers arriving while the keys are being read share that one read
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<LoadedKeys> {
    const generation = this.generation;
    try {
      const current = await this.readOrCreate();
      const retired = await readRetired(this.db, this.service);
      if (retired.some((row) => row.accepted_until.getTime() <= Date.now())) {
        await pruneRetired(this.db, this.service, MAX_PREVIOUS_SERVICE_KEYS);
      }
      const previous = await this.openRetired(retired, current);
      if (generation !== this.generation && this.loaded) return this.loaded;
      return this.adopt(current, previous);
    } catch (err) {
      // the database is down: keep serving the keys we have rather than failing every request
      if (this.loaded && !(err instanceof ServiceKeyUnreadable)) return this.loaded;
      throw err;
    }
  }

  /** The last key loaded, without I/O (health checks while the database is down). */
  cachedPublicKey(): string | undefined {
    return this.loaded?.current.key.keyId;
  }

  /**
   * Replaces the current key if it is `keyId` (undefined when it is not). The replaced key stays
   * accepted for the grace; with a grace of 0 no previous key stays accepted at all.
   */
  async reset(keyId: string): Promise<ServiceKey | undefined> {
    const fresh = await this.newRow();
    const retired = await this.db.transaction(async (trx) => {
      const row = await lockCurrent(trx, this.service);
      if (!row || !samePublicKey(row.public_key, keyId)) return undefined;
      if (this.graceSeconds > 0) await retire(trx, row, this.graceSeconds);
      else await dropRetired(trx, this.service);
      await replaceCurrent(trx, fresh);
      await pruneRetired(trx, this.service, MAX_PREVIOUS_SERVICE_KEYS);
      return readRetired(trx, this.service);
    });
    if (!retired) return undefined;
    this.generation += 1;
    const current = await this.open(fresh);
    return this.adopt(current, await this.openRetired(retired, current)).current.key;
  }

  /**
   * Ends the grace of every previous key at once (one believed leaked): their sealed copies are
   * deleted, so this process refuses them now and every other replica at its next re-read
   * (`refreshMs`), as it learns of a reset. The current key stays.
   */
  async endGrace(): Promise<EndedGrace> {
    const ended = await this.db.transaction(async (trx) => {
      // under the current row's lock: a reset racing this one retires its key after, and keeps it
      await lockCurrent(trx, this.service);
      const retired = await readRetired(trx, this.service);
      await dropRetired(trx, this.service);
      return retired;
    });
    this.generation += 1;
    const key = await this.readOrCreate();
    const retired = await readRetired(this.db, this.service);
    const { current } = this.adopt(key, await this.openRetired(retired, key));
    const now = Date.now();
    return {
      service: this.service,
      publicKey: current.key.keyId,
      ended: ended
        .filter((row) => row.accepted_until.getTime() > now && row.public_key !== current.key.keyId)
        .map((row) => ({
          publicKey: row.public_key,
          acceptedUntil: row.accepted_until.toISOString(),
        })),
    };
  }

  private context(): string {
    return `service-key:${this.service}`;
  }

  private async newRow(): Promise<SealedKeyRow> {
    const pair = generateKeyPair();
    const owner = { kind: 'service-key', id: pair.publicKey };
    const sealed = (await this.keyring.newDataKey(owner)).seal(pair.privateKey, this.context());
    return { service: this.service, public_key: pair.publicKey, private_key_sealed: sealed };
  }

  private async open(row: SealedKeyRow): Promise<ServiceKey> {
    let keySecret: string;
    try {
      keySecret = await this.keyring.open(row.private_key_sealed, this.context());
    } catch {
      throw new ServiceKeyUnreadable(
        `the ${this.service} service key cannot be opened with this MASTER_KEY (was it changed?)`,
      );
    }
    return { keyId: row.public_key, keySecret, tag: this.service, type: 'ecdsa-secp256k1' };
  }

  private async readOrCreate(): Promise<ServiceKey> {
    const existing = await readCurrent(this.db, this.service);
    if (!existing) {
      await insertCurrentIfAbsent(this.db, await this.newRow());
      return this.readOrCreate();
    }
    try {
      return await this.open(existing);
    } catch (err) {
      if (!(err instanceof ServiceKeyUnreadable) || !this.options.replaceUnreadable) throw err;
      return this.replaceUnreadable();
    }
  }

  /**
   * Under the row lock, and as an update so the row keeps its identity: racing replicas wait
   * for the first, then find the new key readable. Retired keys were sealed under the same other
   * master key: they go too.
   */
  private async replaceUnreadable(): Promise<ServiceKey> {
    const replaced = await this.db.transaction(async (trx) => {
      const row = await lockCurrent(trx, this.service);
      if (!row) return undefined;
      try {
        return await this.open(row);
      } catch {
        const fresh = await this.newRow();
        await replaceCurrent(trx, fresh);
        await dropRetired(trx, this.service);
        this.options.warn?.(
          `the ${this.service} service key was sealed under another master key: replaced it with a new key (development master key only)`,
        );
        return this.open(fresh);
      }
    });
    return replaced ?? this.readOrCreate();
  }

  /** Installs the keys read, keeping each known key's agreement (and its derived-key cache). */
  private adopt(current: ServiceKey, retired: OpenedRetired[]): LoadedKeys {
    const known = new Map<string, KeyAgreement>();
    if (this.loaded) {
      for (const k of [this.loaded.current, ...this.loaded.previous])
        known.set(k.key.keyId, k.agreement);
    }
    const accept = (key: ServiceKey) => known.get(key.keyId) ?? new KeyAgreement(key.keySecret);
    const previous: PreviousServiceKey[] = retired.map(({ key, acceptedUntil }) => ({
      key,
      agreement: accept(key),
      acceptedUntil,
    }));
    this.loaded = {
      current: { key: current, agreement: accept(current) },
      previous,
      loadedAt: Date.now(),
    };
    return this.loaded;
  }

  /**
   * The retired keys still accepted, opened; one that no longer opens (master key changed) is
   * simply no longer accepted.
   */
  private async openRetired(rows: RetiredKeyRow[], current: ServiceKey): Promise<OpenedRetired[]> {
    const now = Date.now();
    const opened = await Promise.all(
      rows
        .filter((row) => row.accepted_until.getTime() > now && row.public_key !== current.keyId)
        .map(async (row) => {
          const key = await this.open(row).catch(() => undefined);
          return key && { key, acceptedUntil: row.accepted_until };
        }),
    );
    return opened.filter((entry): entry is OpenedRetired => entry !== undefined);
  }
}

function stillAccepted(key: PreviousServiceKey, now: number): boolean {
  return key.acceptedUntil.getTime() > now;
}

/** keyId arrives in a URL path: accept base64 or base64url, compare the decoded point. */
function samePublicKey(stored: string, given: string): boolean {
  try {
    const normalised = given.replace(/-/g, '+').replace(/_/g, '/');
    return publicKeyPoint(stored).equals(publicKeyPoint(normalised));
  } catch {
    return false;
  }
}

/** The sealed columns of the service keys, current and retired (legacySealed.ts). */
export const SERVICE_KEY_SEALED: SealedColumn[] = [
  'platform.service_keys',
  'platform.retired_service_keys',
].map((table) => ({
  table,
  column: 'private_key_sealed',
  key: ['service', 'public_key'],
  owner: (row) => ({ kind: 'service-key', id: String(row.public_key) }),
  context: (row) => `service-key:${String(row.service)}`,
}));
