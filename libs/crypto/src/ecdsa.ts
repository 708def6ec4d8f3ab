// ECDSA secp256k1 over SHA-256 with raw r||s signatures, low-S so strict verifiers accept them.
import { createHash, verify as nodeVerify } from 'node:crypto';
import { createRequire } from 'node:module';
import * as wasm from 'tiny-secp256k1';
import { InvalidKeyError, privateKeyBytes, verifyingKey } from './keys.ts';

/** libsecp256k1: deterministic (RFC 6979) nonces and low s, so the same bytes from either build. */
export interface Signer {
  name: string;
  isPrivate(scalar: Uint8Array): boolean;
  sign(digest: Uint8Array, scalar: Uint8Array): Uint8Array;
}

/** The secp256k1 package's own prebuilt addon (linux x64 glibc and musl, macOS arm64, Windows). */
interface NativeBindings {
  privateKeyVerify(scalar: Uint8Array): boolean;
  ecdsaSign(digest: Uint8Array, scalar: Uint8Array): { signature: Uint8Array };
}

/**
 * libsecp256k1 as a native addon where the secp256k1 package ships one for this platform (about
 * 40-60 µs a signature here), else the same library built to WebAssembly (tiny-secp256k1, about
 * 115-130 µs): both far below OpenSSL's generic curve code in node:crypto (about 450 µs). Only the
 * package's bindings are loaded, never its pure-JavaScript fallback.
 */
function chooseSigner(): Signer {
  try {
    const native = createRequire(import.meta.url)('secp256k1/bindings') as NativeBindings;
    return {
      name: 'libsecp256k1 (native addon)',
      isPrivate: (scalar) => native.privateKeyVerify(scalar),
      sign: (digest, scalar) => native.ecdsaSign(digest, scalar).signature,
    };
  } catch {
    return wasmSigner;
  }
}

const wasmSigner: Signer = {
  name: 'libsecp256k1 (WebAssembly)',
  isPrivate: (scalar) => wasm.isPrivate(scalar),
  sign: (digest, scalar) => wasm.sign(digest, scalar),
};

const signer = chooseSigner();

/** Which build signs in this process, and the WebAssembly one beside it (a test compares them). */
export const ECDSA_SIGNERS = { chosen: signer, wasm: wasmSigner } as const;

export function signMessage(privateKey: string, message: string | Buffer): string {
  const scalar = privateKeyBytes(privateKey);
  if (!signer.isPrivate(scalar))
    throw new InvalidKeyError('private key is not a valid secp256k1 scalar');
  const digest = createHash('sha256').update(message).digest();
  return Buffer.from(signer.sign(digest, scalar)).toString('base64');
}

/** Half the order of secp256k1: an s above it is the malleated twin of a low-S signature. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The order of secp256k1's group. */
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Whether a raw r||s signature has the low s every signer of ours produces. */
export function isLowS(raw: Buffer): boolean {
  return raw.length === 64 && BigInt(`0x${raw.subarray(32).toString('hex')}`) <= HALF_ORDER;
}

/**
 * The low-S form of a raw r||s signature (s replaced by n - s when high), a copy. Signatures made
 * by node:crypto, OpenSSL and the common JOSE libraries are high in about half the cases and JOSE
 * does not ask for low S (RFC 7518, RFC 8812), so signatures from callers are normalised, not
 * refused; whatever then uses the bytes sees one form per signature.
 */
export function toLowS(raw: Buffer): Buffer {
  const high = raw.length === 64 ? BigInt(`0x${raw.subarray(32).toString('hex')}`) : 0n;
  // s of n or more is no signature at all: left as it is, it fails verification
  if (high <= HALF_ORDER || high >= ORDER) return Buffer.from(raw);
  const s = ORDER - high;
  return Buffer.concat([raw.subarray(0, 32), Buffer.from(s.toString(16).padStart(64, '0'), 'hex')]);
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
