// ES256K proof JWTs (proof_of_authentication_jwt) signed with a base64 secp256k1 scalar as callers'
// authenticators sign them: node:crypto's signature as it comes, high S in about half the cases.
import { createECDH, createPrivateKey, sign } from 'node:crypto';

const ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

function keyOf(privateKey: string) {
  const d = Buffer.from(privateKey, 'base64');
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const b64 = (b: Buffer) => b.toString('base64url');
  return createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: b64(d),
      x: b64(point.subarray(1, 33)),
      y: b64(point.subarray(33)),
    },
  });
}

export function signProofJwt(
  privateKey: string,
  claims: Record<string, unknown>,
  form: 'as-signed' | 'high' | 'low' = 'as-signed',
): string {
  const encode = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${encode({ alg: 'ES256K', typ: 'JWT' })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: keyOf(privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  const flip = (form === 'high' && s <= ORDER / 2n) || (form === 'low' && s > ORDER / 2n);
  if (!flip) return `${input}.${signature.toString('base64url')}`;
  const twin = Buffer.from((ORDER - s).toString(16).padStart(64, '0'), 'hex');
  return `${input}.${Buffer.concat([signature.subarray(0, 32), twin]).toString('base64url')}`;
}
