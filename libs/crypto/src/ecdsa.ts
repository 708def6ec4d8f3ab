// ECDSA secp256k1 over SHA-256 with raw r||s signatures, low-S so strict verifiers accept them.
import { createHash, verify as nodeVerify } from 'node:crypto';
import { isPrivate, sign as secpSign } from 'tiny-secp256k1';
import { InvalidKeyError, privateKeyBytes, verifyingKey } from './keys.ts';

/**
 * Signed with libsecp256k1 (built to WebAssembly, shipped inside the npm package): about 140 µs a
 * signature here against about 450 µs for OpenSSL's generic curve code in node:crypto, cheap
 * enough to stay on the event loop. Nonces are RFC 6979 (deterministic) and s is always low, so
 * strict verifiers accept the signature; node:crypto verifies it as any ECDSA signature.
 */
export function signMessage(privateKey: string, message: string | Buffer): string {
  const scalar = privateKeyBytes(privateKey);
  if (!isPrivate(scalar)) throw new InvalidKeyError('private key is not a valid secp256k1 scalar');
  const digest = createHash('sha256').update(message).digest();
  return Buffer.from(secpSign(digest, scalar)).toString('base64');
}

/** Half the order of secp256k1: an s above it is the malleated twin of a low-S signature. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** Whether a raw r||s signature has the low s every signer of ours produces. */
export function isLowS(raw: Buffer): boolean {
  return raw.length === 64 && BigInt(`0x${raw.subarray(32).toString('hex')}`) <= HALF_ORDER;
}

/**
 * node:crypto accepts both s and n - s; only the low one verifies here, so a signature has one
 * valid encoding and a malleated copy cannot pass as another message's proof or callback.
 */
export function verifyMessage(
  publicKey: string,
  message: string | Buffer,
  signature: string,
): boolean {
  const raw = Buffer.from(signature, 'base64');
  if (!isLowS(raw)) return false;
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
