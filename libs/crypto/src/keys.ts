// secp256k1 key handling in the wire format of DESIGN 2.1: raw base64 scalars and X||Y points.
import { createECDH, createPublicKey, ECDH, type KeyObject } from 'node:crypto';

export const CURVE = 'secp256k1';

export class InvalidKeyError extends Error {
  override name = 'InvalidKeyError';
}

export interface KeyPair {
  /** base64 of the raw 64-byte X||Y point, no 0x04 prefix */
  publicKey: string;
  /** base64 of the 32-byte big-endian scalar */
  privateKey: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(value: string, what: string): Buffer {
  const trimmed = value.trim();
  if (trimmed.length === 0 || !BASE64.test(trimmed)) {
    throw new InvalidKeyError(`${what} is not base64`);
  }
  return Buffer.from(trimmed, 'base64');
}

/** Private key bytes normalised to 32: peers send 31 (dropped leading zero) or 33 (sign byte). */
export function privateKeyBytes(privateKey: string): Buffer {
  const raw = decodeBase64(privateKey, 'private key');
  if (raw.length === 32) return raw;
  if (raw.length === 33 && raw[0] === 0) return raw.subarray(1);
  if (raw.length === 31) return Buffer.concat([Buffer.alloc(1), raw]);
  throw new InvalidKeyError(`private key must be 32 bytes, got ${raw.length}`);
}

/** Public key as the uncompressed 65-byte point node:crypto expects. */
export function publicKeyPoint(publicKey: string): Buffer {
  const raw = decodeBase64(publicKey, 'public key');
  if (raw.length === 64) return Buffer.concat([Buffer.from([4]), raw]);
  if (raw.length === 65 && raw[0] === 4) return raw;
  if (raw.length === 33 && (raw[0] === 2 || raw[0] === 3)) {
    try {
      return ECDH.convertKey(raw, CURVE, undefined, undefined, 'uncompressed') as Buffer;
    } catch {
      throw new InvalidKeyError('public key is not a point on secp256k1');
    }
  }
  throw new InvalidKeyError(`public key must be 64 bytes (X||Y), got ${raw.length}`);
}

function leftPad32(buf: Buffer): Buffer {
  return buf.length >= 32 ? buf : Buffer.concat([Buffer.alloc(32 - buf.length), buf]);
}

export function generateKeyPair(): KeyPair {
  const ecdh = createECDH(CURVE);
  ecdh.generateKeys();
  return {
    privateKey: leftPad32(ecdh.getPrivateKey()).toString('base64'),
    publicKey: ecdh.getPublicKey().subarray(1).toString('base64'),
  };
}

/** An ECDH object holding `privateKey`; InvalidKeyError when it is not a usable scalar. */
export function ecdhWith(privateKey: string): ECDH {
  const ecdh = createECDH(CURVE);
  try {
    ecdh.setPrivateKey(privateKeyBytes(privateKey));
  } catch (err) {
    if (err instanceof InvalidKeyError) throw err;
    throw new InvalidKeyError('private key is not a valid secp256k1 scalar');
  }
  return ecdh;
}

export function publicKeyFromPrivate(privateKey: string): string {
  return ecdhWith(privateKey).getPublicKey().subarray(1).toString('base64');
}

function b64url(buf: Buffer): string {
  return buf.toString('base64url');
}

export function verifyingKey(publicKey: string): KeyObject {
  const point = publicKeyPoint(publicKey);
  try {
    return createPublicKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: CURVE,
        x: b64url(point.subarray(1, 33)),
        y: b64url(point.subarray(33)),
      },
    });
  } catch {
    throw new InvalidKeyError('public key is not a point on secp256k1');
  }
}
