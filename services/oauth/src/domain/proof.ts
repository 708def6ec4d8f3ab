// Checks a proof_of_authentication_jwt: ES256K signature by a trusted key, audience, short life.
// jose 6 runs on WebCrypto, which has no secp256k1, so the signature is checked with node:crypto.
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { toLowS } from '@idv/crypto';

export class ProofRejected extends Error {
  override name = 'ProofRejected';
}

export interface VerifiedProof {
  sub: string;
  jti: string;
  exp: number;
}

/** A key allowed to sign proofs and the names (`kid`) a proof may give it by. */
export interface ProofKey {
  kids: string[];
  jwk: JsonWebKey;
}

export interface ProofRules {
  keys: ProofKey[];
  /** the community's issuer: the only accepted `aud` */
  audience: string;
  /** seconds a proof may live from iat to exp */
  maxLifetime: number;
  clockTolerance: number;
  /** the client asking: a proof that names one (azp) is good for that client only */
  clientId: string;
  now?: number;
}

function json(segment: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw new ProofRejected('proof is not a JWT');
}

function keyOf(jwk: JsonWebKey): KeyObject | undefined {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** The keys a proof may be checked with: the one its kid names, or all when it names none. */
function candidates(kid: unknown, keys: ProofKey[]): ProofKey[] {
  if (kid === undefined) return keys;
  if (typeof kid !== 'string') throw new ProofRejected('proof kid must be a string');
  const named = keys.filter((key) => key.kids.includes(kid));
  if (named.length === 0) throw new ProofRejected('proof kid names no trusted key');
  return named;
}

/**
 * Both s and n - s are accepted: JOSE does not ask for low S, and node:crypto, OpenSSL and the
 * common JOSE libraries sign high S in about half the cases. The signature is normalised to low S
 * before any use; a proof is spent by its jti, never by its signature bytes, so the malleated
 * twin of a spent proof is spent too.
 */
function signedByOneOf(token: string, keys: ProofKey[]): boolean {
  const [header, payload, signature] = token.split('.');
  const input = Buffer.from(`${header}.${payload}`);
  const given = Buffer.from(signature ?? '', 'base64url');
  if (given.length !== 64) return false;
  const raw = toLowS(given);
  return keys.some((candidate) => {
    const key = keyOf(candidate.jwk);
    return key !== undefined && verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, raw);
  });
}

function audienceMatches(aud: unknown, expected: string): boolean {
  return aud === expected || (Array.isArray(aud) && aud.includes(expected));
}

export function verifyProof(token: string, rules: ProofRules): VerifiedProof {
  const parts = token.split('.');
  if (parts.length !== 3) throw new ProofRejected('proof is not a JWT');
  const header = json(parts[0] ?? '');
  const claims = json(parts[1] ?? '');
  if (header.alg !== 'ES256K') throw new ProofRejected('proof must be signed with ES256K');
  if (!signedByOneOf(token, candidates(header.kid, rules.keys))) {
    throw new ProofRejected('proof signature is not trusted');
  }
  if (!audienceMatches(claims.aud, rules.audience)) {
    throw new ProofRejected('proof audience is not this issuer');
  }
  // optional, as a requestid's htm/htu: a signer that names the client makes a captured proof
  // useless to the other clients of the community
  if (claims.azp !== undefined && claims.azp !== rules.clientId) {
    throw new ProofRejected('proof is for another client (azp)');
  }
  const { sub, jti, iat, exp } = claims;
  if (typeof sub !== 'string' || !sub) throw new ProofRejected('proof has no sub');
  if (typeof jti !== 'string' || !jti) throw new ProofRejected('proof has no jti');
  // both are stored (the replay log, the grant): text PostgreSQL can hold
  if (sub.includes('\u0000') || jti.includes('\u0000')) {
    throw new ProofRejected('proof sub and jti must not contain NUL characters');
  }
  if (typeof iat !== 'number' || typeof exp !== 'number') {
    throw new ProofRejected('proof needs numeric iat and exp');
  }
  const now = rules.now ?? Math.floor(Date.now() / 1000);
  if (exp <= now - rules.clockTolerance) throw new ProofRejected('proof has expired');
  if (iat > now + rules.clockTolerance) throw new ProofRejected('proof is issued in the future');
  if (exp - iat > rules.maxLifetime) throw new ProofRejected('proof lives too long');
  return { sub, jti, exp };
}
