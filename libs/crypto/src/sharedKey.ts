// ECDH shared keys (X coordinate, unhashed) with a bounded LRU cache: a derive costs ~1.5 ms.
import { ecdhWith, InvalidKeyError, publicKeyPoint } from './keys.ts';

export function deriveSharedKey(privateKey: string, publicKey: string): Buffer {
  const ecdh = ecdhWith(privateKey);
  const point = publicKeyPoint(publicKey);
  try {
    const secret = ecdh.computeSecret(point);
    return secret.length === 32
      ? secret
      : Buffer.concat([Buffer.alloc(32 - secret.length), secret]);
  } catch {
    throw new InvalidKeyError('public key is not a point on secp256k1');
  }
}

/**
 * One private key (a service key) agreeing with many callers' public keys.
 * Entries are evicted least-recently-used once `capacity` is reached.
 */
export class KeyAgreement {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly privateKey: string,
    private readonly capacity = 10_000,
  ) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  sharedKey(publicKey: string): Buffer {
    const hit = this.cache.get(publicKey);
    if (hit) {
      this.cache.delete(publicKey);
      this.cache.set(publicKey, hit);
      return hit;
    }
    const key = deriveSharedKey(this.privateKey, publicKey);
    if (this.cache.size >= this.capacity) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(publicKey, key);
    return key;
  }

  get size(): number {
    return this.cache.size;
  }
}
