// ES256K proof JWTs (proof_of_authentication_jwt) signed with a base64 secp256k1 scalar as callers'
// authenticators sign them: node:crypto's signature as it comes, high S in about half the cases;
// and the same proof with s in the other of its two valid forms.
import { createECDH, createPrivateKey, sign } from 'node:crypto';

/** The order of secp256k1, to move a signature's s between its two valid forms. */
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

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

const sOf = (proof: string) =>
  BigInt(`0x${Buffer.from(proof.split('.')[2]!, 'base64url').subarray(32).toString('hex')}`);

/** The same proof with s replaced by n - s: a signature node:crypto still verifies. */
export function malleate(proof: string): string {
  const [header, payload, signature] = proof.split('.');
  const raw = Buffer.from(signature!, 'base64url');
  const twin = Buffer.from((ORDER - sOf(proof)).toString(16).padStart(64, '0'), 'hex');
  return `${header}.${payload}.${Buffer.concat([raw.subarray(0, 32), twin]).toString('base64url')}`;
}

/** The same proof with its signature in the form asked for (high S: the form strict signers avoid). */
export function withSForm(proof: string, form: 'high' | 'low'): string {
  return sOf(proof) > ORDER / 2n === (form === 'high') ? proof : malleate(proof);
}

/** An ES256K JWT of `claims`, its s as node:crypto made it or in the form asked for. */
export function signProofJwt(
  privateKey: string,
  claims: Record<string, unknown>,
  form: 'as-signed' | 'high' | 'low' = 'as-signed',
  header: { kid?: string } = {},
): string {
  const encode = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${encode({ alg: 'ES256K', typ: 'JWT', ...header })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: keyOf(privateKey),
    dsaEncoding: 'ieee-p1363',
  });
  const proof = `${input}.${signature.toString('base64url')}`;
  return form === 'as-signed' ? proof : withSForm(proof, form);
}
