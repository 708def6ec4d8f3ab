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

export class ServiceKeyStore {
  private readonly box: SecretBox;
  private current: CurrentServiceKey | undefined;

  constructor(
    private readonly db: Knex,
    masterKey: Buffer,
    readonly service: ServiceName,
    private readonly refreshMs = 5000,
  ) {
    this.box = createSecretBox(masterKey);
  }

  private context(): string {
    return `service-key:${this.service}`;
  }

  private toServiceKey(publicKey: string, sealed: string): ServiceKey {
    let keySecret: string;
    try {
      keySecret = this.box.open(sealed, this.context());
    } catch {
      throw new ServiceKeyUnreadable(
        `the ${this.service} service key cannot be opened with this MASTER_KEY (was it changed?)`,
      );
    }
    return { keyId: publicKey, keySecret, tag: this.service, type: 'ecdsa-secp256k1' };
  }

  private async readOrCreate(): Promise<ServiceKey> {
    const existing = await this.db('platform.service_keys')
      .where({ service: this.service })
      .first();
    if (existing) return this.toServiceKey(existing.public_key, existing.private_key_sealed);
    const pair = generateKeyPair();
    await this.db('platform.service_keys')
      .insert({
        service: this.service,
        public_key: pair.publicKey,
        private_key_sealed: this.box.seal(pair.privateKey, this.context()),
      })
      .onConflict('service')
      .ignore();
    return this.readOrCreate();
  }

  private adopt(key: ServiceKey): CurrentServiceKey {
    const same = this.current && this.current.key.keyId === key.keyId;
    this.current = {
      key,
      agreement: same && this.current ? this.current.agreement : new KeyAgreement(key.keySecret),
      loadedAt: Date.now(),
    };
    return this.current;
  }

  /** The current key; served from memory, re-read once `refreshMs` has passed. */
  async currentKey(): Promise<CurrentServiceKey> {
    if (this.current && Date.now() - this.current.loadedAt < this.refreshMs) return this.current;
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

  /** Deletes the current key if it is `keyId` and makes a new one; false when keyId is not current. */
  async reset(keyId: string): Promise<ServiceKey | undefined> {
    const pair = generateKeyPair();
    const replaced = await this.db.transaction(async (trx) => {
      const row = await trx('platform.service_keys')
        .where({ service: this.service })
        .forUpdate()
        .first();
      if (!row || !samePublicKey(row.public_key, keyId)) return false;
      await trx('platform.service_keys').where({ service: this.service }).delete();
      await trx('platform.service_keys').insert({
        service: this.service,
        public_key: pair.publicKey,
        private_key_sealed: this.box.seal(pair.privateKey, this.context()),
      });
      return true;
    });
    if (!replaced) return undefined;
    return this.adopt({
      keyId: pair.publicKey,
      keySecret: pair.privateKey,
      tag: this.service,
      type: 'ecdsa-secp256k1',
    }).key;
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
