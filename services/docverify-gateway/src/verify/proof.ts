// The proof token of a certification: a compact ES256K JWS signed with the docverify service key,
// verifiable by anyone with the key from /publickeys.
import { randomUUID } from 'node:crypto';
import { signMessage } from '@idv/crypto';

export interface ProofClaims {
  verificationId: string;
  kind: string;
  verifier: string;
  verified: boolean;
  status: string;
  dvcID: string;
  /** a human review's certification: the decision it signs (no operator) */
  review?: { decision: string; reasonCode: string; caseId: string; decidedAt: string };
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signed on the event loop: libs/crypto's libsecp256k1 takes about 0.05 ms (WebAssembly 0.12). */
export function signProof(
  servicePrivateKey: string,
  servicePublicKey: string,
  claims: ProofClaims,
): string {
  const header = { alg: 'ES256K', typ: 'JWT', kid: servicePublicKey.slice(0, 16) };
  const payload = {
    iss: 'docverify',
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ...claims,
  };
  const signingInput = `${b64url(header)}.${b64url(payload)}`;
  const signature = Buffer.from(signMessage(servicePrivateKey, signingInput), 'base64').toString(
    'base64url',
  );
  return `${signingInput}.${signature}`;
}
