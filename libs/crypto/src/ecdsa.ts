// ECDSA secp256k1 over SHA-256 with raw r||s signatures, low-S so strict verifiers accept them.
import { sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { signingKey, verifyingKey } from './keys.ts';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const HALF_N = N >> 1n;

function toLowS(signature: Buffer): Buffer {
  const s = BigInt('0x' + signature.subarray(32).toString('hex'));
  if (s <= HALF_N) return signature;
  const low = Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex');
  return Buffer.concat([signature.subarray(0, 32), low]);
}

// Building a KeyObject from a raw scalar costs an EC point multiplication; service keys sign
// many messages, so the few keys in use are kept (bounded, oldest dropped first).
const keyObjects = new Map<string, KeyObject>();
const KEY_OBJECTS_MAX = 16;

function cachedSigningKey(privateKey: string): KeyObject {
  let key = keyObjects.get(privateKey);
  if (!key) {
    key = signingKey(privateKey);
    if (keyObjects.size >= KEY_OBJECTS_MAX) keyObjects.delete(keyObjects.keys().next().value!);
    keyObjects.set(privateKey, key);
  }
  return key;
}

export function signMessage(privateKey: string, message: string | Buffer): string {
  const raw = nodeSign('sha256', Buffer.from(message), {
    key: cachedSigningKey(privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  return toLowS(raw).toString('base64');
}

/** The same signature computed on the libuv thread pool, off the event loop (~0.3 ms of CPU). */
export function signMessageAsync(privateKey: string, message: string | Buffer): Promise<string> {
  const key = cachedSigningKey(privateKey);
  return new Promise((resolve, reject) =>
    nodeSign('sha256', Buffer.from(message), { key, dsaEncoding: 'ieee-p1363' }, (err, raw) =>
      err ? reject(err) : resolve(toLowS(raw).toString('base64')),
    ),
  );
}

export function verifyMessage(
  publicKey: string,
  message: string | Buffer,
  signature: string,
): boolean {
  const raw = Buffer.from(signature, 'base64');
  if (raw.length !== 64) return false;
  try {
    return nodeVerify(
      'sha256',
      Buffer.from(message),
      { key: verifyingKey(publicKey), dsaEncoding: 'ieee-p1363' },
      raw,
    );
  } catch {
    return false;
  }
}
