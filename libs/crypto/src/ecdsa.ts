// ECDSA secp256k1 over SHA-256 with raw r||s signatures, low-S so strict verifiers accept them.
import { sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { signingKey, verifyingKey } from './keys.ts';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const HALF_N = N >> 1n;

function toLowS(signature: Buffer): Buffer {
  const s = BigInt('0x' + signature.subarray(32).toString('hex'));
  if (s <= HALF_N) return signature;
  const low = Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex');
  return Buffer.concat([signature.subarray(0, 32), low]);
}

export function signMessage(privateKey: string, message: string | Buffer): string {
  const raw = nodeSign('sha256', Buffer.from(message), {
    key: signingKey(privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  return toLowS(raw).toString('base64');
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
