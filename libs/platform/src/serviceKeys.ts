// One secp256k1 key per service, sealed at rest; made on first use, replaced on reset, and
// re-read periodically so every replica follows a reset made by another.
import {
  createSecretBox,
  generateKeyPair,
  KeyAgreement,
  publicKeyPoint,
  type SecretBox,
} from '@idv/crypto';
import type { Knex } from '@idv/db';

export const SERVICE_NAMES = ['oauth', 'docverify', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

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

export interface CurrentServiceKey {
  key: ServiceKey;
  agreement: KeyAgreement;
  loadedAt: number;
}

export interface ServiceKeyStoreOptions {
  /** ms a loaded key is served from memory before re-reading (a reset elsewhere shows after this) */
  refreshMs?: number;
  /**
   * Development only: a key sealed under another master key (another checkout's dev key) is
   * replaced instead of refused, and `warn` says so.
   */
  replaceUnreadable?: boolean;
  warn?: (line: string) => void;
}

interface ServiceKeyRow {
  service: ServiceName;
  public_key: string;
  private_key_sealed: string;
}

const TABLE = 'platform.service_keys';

export class ServiceKeyStore {
  private readonly box: SecretBox;
  private readonly refreshMs: number;
  private current: CurrentServiceKey | undefined;
  private loading: Promise<CurrentServiceKey> | undefined;

  constructor(
    private readonly db: Knex,
    masterKey: Buffer,
    readonly service: ServiceName,
    private readonly options: ServiceKeyStoreOptions = {},
  ) {
    this.box = createSecretBox(masterKey);
    this.refreshMs = options.refreshMs ?? 5000;
  }

  /** The current key; served from memory, re-read once `refreshMs` has passed. */
  currentKey(): Promise<CurrentServiceKey> {
    if (this.current && Date.now() - this.current.loadedAt < this.refreshMs) {
      return Promise.resolve(this.current);
    }
    // callers arriving while the key is being read share that one read
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<CurrentServiceKey> {
    try {
      return this.adopt(await this.readOrCreate());
    } catch (err) {
      // the database is down: keep serving the key we have rather than failing every request
      if (this.current && !(err instanceof ServiceKeyUnreadable)) return this.current;
      throw err;
    }
  }

  /** The last key loaded, without I/O (health checks while the database is down). */
  cachedPublicKey(): string | undefined {
    return this.current?.key.keyId;
  }

  /** Deletes the current key if it is `keyId` and makes a new one; undefined when it is not. */
  async reset(keyId: string): Promise<ServiceKey | undefined> {
    const fresh = this.newRow();
    const replaced = await this.db.transaction(async (trx) => {
      const row = await this.lockedRow(trx);
      if (!row || !samePublicKey(row.public_key, keyId)) return false;
      // an update rather than delete + insert, so a racing reset waits and then sees the new key
      await trx(TABLE)
        .where({ service: this.service })
        .update({ ...fresh, created_at: trx.fn.now() });
      return true;
    });
    return replaced ? this.adopt(this.open(fresh)).key : undefined;
  }

  private context(): string {
    return `service-key:${this.service}`;
  }

  private newRow(): ServiceKeyRow {
    const pair = generateKeyPair();
    const sealed = this.box.seal(pair.privateKey, this.context());
    return { service: this.service, public_key: pair.publicKey, private_key_sealed: sealed };
  }

  private open(row: ServiceKeyRow): ServiceKey {
    let keySecret: string;
    try {
      keySecret = this.box.open(row.private_key_sealed, this.context());
    } catch {
      throw new ServiceKeyUnreadable(
        `the ${this.service} service key cannot be opened with this MASTER_KEY (was it changed?)`,
      );
    }
    return { keyId: row.public_key, keySecret, tag: this.service, type: 'ecdsa-secp256k1' };
  }

  private lockedRow(trx: Knex.Transaction): Promise<ServiceKeyRow | undefined> {
    return trx(TABLE).where({ service: this.service }).forUpdate().first();
  }

  private async readOrCreate(): Promise<ServiceKey> {
    const existing: ServiceKeyRow | undefined = await this.db(TABLE)
      .where({ service: this.service })
      .first();
    if (!existing) {
      await this.db(TABLE).insert(this.newRow()).onConflict('service').ignore();
      return this.readOrCreate();
    }
    try {
      return this.open(existing);
    } catch (err) {
      if (!(err instanceof ServiceKeyUnreadable) || !this.options.replaceUnreadable) throw err;
      return this.replaceUnreadable();
    }
  }

  /**
   * Under the row lock, and as an update so the row keeps its identity: racing replicas wait
   * for the first, then find the new key readable.
   */
  private async replaceUnreadable(): Promise<ServiceKey> {
    const replaced = await this.db.transaction(async (trx) => {
      const row = await this.lockedRow(trx);
      if (!row) return undefined;
      try {
        return this.open(row);
      } catch {
        const fresh = this.newRow();
        await trx(TABLE)
          .where({ service: this.service })
          .update({ ...fresh, created_at: trx.fn.now() });
        this.options.warn?.(
          `the ${this.service} service key was sealed under another master key: replaced it with a new key (development master key only)`,
        );
        return this.open(fresh);
      }
    });
    return replaced ?? this.readOrCreate();
  }

  private adopt(key: ServiceKey): CurrentServiceKey {
    const agreement =
      this.current?.key.keyId === key.keyId
        ? this.current.agreement
        : new KeyAgreement(key.keySecret);
    this.current = { key, agreement, loadedAt: Date.now() };
    return this.current;
  }
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
