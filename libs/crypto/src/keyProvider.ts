// Where key-encryption keys (KEKs) live and how a data key is wrapped under one. The services see
// only this interface: the local provider keeps the KEKs in this process (MASTER_KEY, and the
// keys a rotation added in a directory), another provider keeps them outside it and only ever
// returns wrapped or unwrapped data keys.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unwrapDataKey, wrapDataKey } from './envelope.ts';

export interface KeyProvider {
  /** 'local', or the name of the outside provider */
  readonly kind: string;
  /** the KEK a fresh install starts with (local: MASTER_KEY's) */
  initialKeyId(): string;
  /** a new KEK; its id */
  createKey(): Promise<string>;
  /** whether this process can use the KEK now (a key just added elsewhere is looked for again) */
  hasKey(kekId: string): Promise<boolean>;
  wrap(kekId: string, dataKeyId: string, key: Buffer): Promise<Buffer>;
  unwrap(kekId: string, dataKeyId: string, wrapped: Buffer): Promise<Buffer>;
}

/** An unknown KEK id: not in this provider, or not yet where this process looks. */
export class UnknownKeyError extends Error {
  override readonly name = 'UnknownKeyError';
}

/** A local KEK's id: a fingerprint of the key, so the same key has the same id everywhere. */
export function localKeyId(key: Buffer): string {
  return `local-${createHash('sha256').update('idv kek id\0').update(key).digest('hex').slice(0, 16)}`;
}

const KEY_FILE = /^(local-[0-9a-f]{16})\.key$/;

/**
 * KEKs held in this process: MASTER_KEY, and one file per added key in `dir` (`<id>.key`, the key
 * in base64, mode 0600), which a rotation writes and every process re-reads when it meets an id it
 * does not know yet (no restart). In Kubernetes the directory is a mounted Secret: a key added to
 * the Secret appears in every pod.
 */
export class LocalKeyProvider implements KeyProvider {
  readonly kind = 'local';
  private readonly keys = new Map<string, Buffer>();
  private readonly masterId: string;
  private lastScan = 0;

  constructor(
    masterKey: Buffer,
    private readonly dir: string | undefined,
    private readonly warn: (line: string) => void = () => {},
  ) {
    if (masterKey.length !== 32) throw new RangeError('MASTER_KEY must decode to 32 bytes');
    this.masterId = localKeyId(masterKey);
    this.keys.set(this.masterId, Buffer.from(masterKey));
    this.scan();
  }

  initialKeyId(): string {
    return this.masterId;
  }

  async createKey(): Promise<string> {
    if (!this.dir)
      throw new Error('MASTER_KEYS_DIR is not set: there is nowhere to keep a new key');
    const key = randomBytes(32);
    const id = localKeyId(key);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(this.dir, `${id}.key`), `${key.toString('base64')}\n`, {
      flag: 'wx',
      mode: 0o600,
    });
    this.keys.set(id, key);
    return id;
  }

  async hasKey(kekId: string): Promise<boolean> {
    return this.key(kekId) !== undefined;
  }

  async wrap(kekId: string, dataKeyId: string, key: Buffer): Promise<Buffer> {
    return wrapDataKey(this.required(kekId), kekId, dataKeyId, key);
  }

  async unwrap(kekId: string, dataKeyId: string, wrapped: Buffer): Promise<Buffer> {
    return unwrapDataKey(this.required(kekId), kekId, dataKeyId, wrapped);
  }

  private required(kekId: string): Buffer {
    const key = this.key(kekId);
    if (!key)
      throw new UnknownKeyError(
        `the key-encryption key ${kekId} is not in MASTER_KEY or MASTER_KEYS_DIR`,
      );
    return key;
  }

  /** The key, looking in the directory again (at most every 100 ms) for one not seen yet. */
  private key(kekId: string): Buffer | undefined {
    if (!this.keys.has(kekId) && Date.now() - this.lastScan >= 100) this.scan();
    return this.keys.get(kekId);
  }

  private scan(): void {
    this.lastScan = Date.now();
    if (!this.dir) return;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return; // not made yet: no added keys
    }
    for (const name of names) {
      const id = KEY_FILE.exec(name)?.[1];
      if (!id || this.keys.has(id)) continue;
      const key = Buffer.from(readFileSync(join(this.dir, name), 'utf8').trim(), 'base64');
      // a file whose key is not the one its name says is ignored, never used under that id
      if (key.length === 32 && localKeyId(key) === id) this.keys.set(id, key);
      else this.warn(`${join(this.dir, name)} does not hold the key its name says: ignored`);
    }
  }
}

/**
 * A provider with the local keys beside it: new keys are made by `primary` (an HSM, say), and a
 * key of the local provider's (`local-…`) is still used where it wraps data keys, so a keystore
 * moves from local keys to the HSM with one rotation and its re-wrap, without downtime.
 */
export class WithLocalKeys implements KeyProvider {
  readonly kind: string;

  constructor(
    private readonly primary: KeyProvider,
    private readonly local: LocalKeyProvider,
  ) {
    this.kind = primary.kind;
  }

  private of(kekId: string): KeyProvider {
    return kekId.startsWith('local-') ? this.local : this.primary;
  }

  initialKeyId(): string {
    return this.primary.initialKeyId();
  }

  createKey(): Promise<string> {
    return this.primary.createKey();
  }

  hasKey(kekId: string): Promise<boolean> {
    return this.of(kekId).hasKey(kekId);
  }

  wrap(kekId: string, dataKeyId: string, key: Buffer): Promise<Buffer> {
    return this.of(kekId).wrap(kekId, dataKeyId, key);
  }

  unwrap(kekId: string, dataKeyId: string, wrapped: Buffer): Promise<Buffer> {
    return this.of(kekId).unwrap(kekId, dataKeyId, wrapped);
  }
}
